import 'reflect-metadata';
import { INestApplication, ModuleMetadata } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { Test } from '@nestjs/testing';
import { ApiExcludeController } from '@nestjs/swagger';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { setupApp } from '../../src/app.setup';
import { AppLogger } from '../../src/common';
import { openApiDocument } from '../../src/openapi';
import { FakeSmtp } from '../fakes/smtp';
import { ResponseChecker } from './openapi-responses';
import {
  createTestDatabase,
  deleteRedisKeys,
  restoreEnv,
  setTestEnv,
  TestDatabase,
  testRedisPrefix,
} from './isolation';

// What every test file's own database and Redis keys are made with (see isolation.ts).
export { createTestDatabase, TEST_FRONTEND_URL } from './isolation';
export type { TestDatabase } from './isolation';

export interface TestApp {
  app: INestApplication;
  http: ReturnType<typeof request>;
  /** A supertest agent that keeps cookies, like a browser. */
  agent(): ReturnType<typeof request.agent>;
  database: TestDatabase;
  redisPrefix: string;
  /** The fake SMTP server the app mails to, with `mail: true`. */
  smtp: FakeSmtp;
  get<T>(token: unknown): T;
  /** Closes the app; drops the database and Redis keys unless `keepData`. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  database?: TestDatabase;
  redisPrefix?: string;
  imports?: ModuleMetadata['imports'];
  /** Start a fake SMTP server and point SMTP_URL at it (closed with the app). */
  mail?: boolean;
  /** Providers of the app replaced by the test's own (token → value). */
  overrides?: [token: unknown, value: unknown][];
}

/** The real app, built by the same setup as main.ts, on this file's own database and Redis keys. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const redisPrefix = options.redisPrefix ?? testRedisPrefix();
  const smtp = options.mail ? await FakeSmtp.start() : undefined;
  setTestEnv(database, redisPrefix, smtp, options.env);
  // The contract is the app's: the controllers of a test's own modules stay out of the document,
  // so the response checker leaves their answers alone.
  for (const module of options.imports ?? []) {
    const controllers = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? []) as [];
    for (const controller of controllers) ApiExcludeController()(controller);
  }
  const builder = Test.createTestingModule({
    imports: [AppModule, ...(options.imports ?? [])],
  });
  for (const [token, value] of options.overrides ?? []) {
    builder.overrideProvider(token as never).useValue(value);
  }
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication({ logger: new AppLogger('error') });
  app.use(new ResponseChecker((await openApiDocument(app)) as never).middleware());
  try {
    await setupApp(app);
    await app.init();
  } catch (err) {
    // A configuration the app refuses (a test of start-up) leaves nothing open behind it.
    await app.close();
    await smtp?.close();
    restoreEnv(options.env, smtp);
    if (!options.database) await database.drop();
    if (!options.redisPrefix) await deleteRedisKeys(redisPrefix, process.env.REDIS_URL);
    throw err;
  }
  const server = app.getHttpServer();
  return {
    app,
    http: request(server),
    agent: () => request.agent(server),
    database,
    redisPrefix,
    get smtp(): FakeSmtp {
      if (!smtp) throw new Error('createTestApp({ mail: true }) starts the fake SMTP server');
      return smtp;
    },
    get: <T>(token: unknown) => app.get(token as never) as T,
    async close({ keepData = false } = {}) {
      await app.close();
      await smtp?.close();
      restoreEnv(options.env, smtp);
      if (keepData) return;
      await database.drop();
      await deleteRedisKeys(redisPrefix, process.env.REDIS_URL);
    },
  };
}
