import 'reflect-metadata';
import { getQueueToken } from '@nestjs/bull';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Queue } from 'bull';
import { AppModule } from './app.module';
import { setupApp } from './app.setup';
import { AppLogger, HttpDrain, ShutdownState, stopGracefullyOn } from './common';
import { Env, loadEnv } from './config';
import { OutboxRelay, QueueName } from './events';
import { RedisConnections } from './redis';
import { Scheduler } from './scheduler';

async function bootstrap() {
  // Configuration first: a bad variable stops here with a message naming it.
  const env = loadEnv();
  const logger = new AppLogger(env.LOG_LEVEL);
  // abortOnError off: a failure while the modules start (a refused ENCRYPTION_KEY, a database
  // that does not answer) reaches the message below instead of ending the process silently.
  const app = await NestFactory.create(AppModule, {
    logger,
    bufferLogs: true,
    abortOnError: false,
  });
  await setupApp(app);
  const http = new HttpDrain(app.getHttpServer());
  // Before the workers start (at listen): jobs an earlier version queued under the untagged prefix.
  await app.get(RedisConnections).moveUntaggedBullKeys();
  await app.listen(app.get(Env).PORT);
  stopGracefullyOn({
    graceMs: env.SHUTDOWN_GRACE_MS,
    logger,
    state: app.get(ShutdownState),
    http,
    // The relay's and the scheduler's own stops (app.close calls them again, to no effect).
    stopBackgroundWork: () =>
      Promise.all([
        app.get(OutboxRelay).onModuleDestroy(),
        app.get(Scheduler).beforeApplicationShutdown(),
      ]),
    finishJobs: () => Promise.all(queues(app).map((queue) => queue.pause(true))),
    close: () => app.close(),
    exit: (code) => process.exit(code),
  });
  logger.log(`Ledgerline listening on http://localhost:${env.PORT}`, 'Bootstrap');
}

/** Every queue this process may work on: paused here alone (`pause(true)`), not for all. */
const queues = (app: INestApplication) =>
  Object.values(QueueName).map((name) => app.get<Queue>(getQueueToken(name), { strict: false }));

bootstrap().catch((err: Error) => {
  // Configuration and infrastructure failures end here: say what is wrong, without a stack.
  console.error(`\nLedgerline could not start.\n${err.message}\n`);
  process.exit(1);
});
