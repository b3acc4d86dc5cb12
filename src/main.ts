import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { setupApp } from './app.setup';
import { AppLogger } from './common';
import { Env, loadEnv } from './config';

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
  await app.listen(app.get(Env).PORT);
  logger.log(`Ledgerline listening on http://localhost:${env.PORT}`, 'Bootstrap');
}

bootstrap().catch((err: Error) => {
  // Configuration and infrastructure failures end here: say what is wrong, without a stack.
  console.error(`\nLedgerline could not start.\n${err.message}\n`);
  process.exit(1);
});
