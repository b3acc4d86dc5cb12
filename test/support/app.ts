import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { INestApplication, ModuleMetadata } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { Test } from '@nestjs/testing';
import { ApiExcludeController } from '@nestjs/swagger';
import request from 'supertest';
import Redis from 'ioredis';
import { AppModule } from '../../src/app.module';
import { setupApp } from '../../src/app.setup';
import { AppLogger } from '../../src/common';
import { openApiDocument } from '../../src/openapi';
import { FakeSmtp } from '../fakes/smtp';
import { ResponseChecker } from './openapi-responses';
import { cloneDatabase, dropDatabase } from './postgres';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A database of its own for one test file, cloned from the migrated template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const server = process.env.TEST_PG_SERVER_URL;
  const template = process.env.TEST_PG_TEMPLATE;
  if (!server || !template)
    throw new Error('e2e tests need the jest globalSetup (run them with jest)');
  const name = `ledgerline_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = await cloneDatabase(server, template, name);
  return { name, url, drop: () => dropDatabase(server, name) };
}

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

export const TEST_FRONTEND_URL = 'http://frontend.test';

/** The real app, built by the same setup as main.ts, on this file's own database and Redis keys. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const redisPrefix = options.redisPrefix ?? `lltest:${randomBytes(4).toString('hex')}:`;
  const smtp = options.mail ? await FakeSmtp.start() : undefined;
  Object.assign(process.env, {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_PREFIX: redisPrefix,
    FRONTEND_URL: TEST_FRONTEND_URL,
    SESSION_SECRET: 'test-session-secret-of-at-least-thirty-two-chars',
    ENCRYPTION_KEY: '0'.repeat(63) + '1',
    OUTBOX_RELAY_INTERVAL_MS: '50',
    // supertest connects over loopback: the tests play the proxy that sets X-Forwarded-For.
    TRUST_PROXY: 'loopback',
    ...(smtp ? { SMTP_URL: smtp.url } : {}),
    ...options.env,
  });
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

/** Unsets the variables a test app set, unless something has set them to another value since. */
function restoreEnv(env: Record<string, string> = {}, smtp?: FakeSmtp) {
  const set = { ...(smtp ? { SMTP_URL: smtp.url } : {}), ...env };
  for (const [key, value] of Object.entries(set)) {
    if (process.env[key] === value) delete process.env[key];
  }
}

async function deleteRedisKeys(prefix: string, url = 'redis://127.0.0.1:6379') {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } catch {
    // best effort: the prefix is unique to this run anyway
  } finally {
    redis.disconnect();
  }
}
