import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { expressErrorHandler, setupApp } from './app.setup';
import { AppLogger } from './common/logging/app-logger';
import { Env } from './config/env.schema';

async function bootstrap() {
  const logger = new AppLogger((process.env.LOG_LEVEL as never) ?? 'log');
  const app = await NestFactory.create(AppModule, { logger, bufferLogs: true });
  setupApp(app);
  const env = app.get(Env);
  await app.listen(env.PORT);
  app.use(expressErrorHandler);
  logger.log(`Ledgerline listening on http://localhost:${env.PORT}`, 'Bootstrap');
}

bootstrap().catch((err: Error) => {
  // Configuration and infrastructure failures end here: say what is wrong, without a stack.
  console.error(`\nLedgerline could not start.\n${err.message}\n`);
  process.exit(1);
});
