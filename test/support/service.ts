import 'reflect-metadata';
import { ModuleMetadata } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { CommonModule } from '../../src/common';
import { ConfigModule } from '../../src/config';
import { DatabaseModule } from '../../src/database';
import { EventsModule } from '../../src/events';
import { IdempotencyModule } from '../../src/idempotency';
import { RedisModule } from '../../src/redis';
import { FakeSmtp } from '../fakes/smtp';
import {
  createTestDatabase,
  deleteRedisKeys,
  restoreEnv,
  setTestEnv,
  TestDatabase,
  testRedisPrefix,
} from './isolation';

type Imports = NonNullable<ModuleMetadata['imports']>;

export interface ServiceTestOptions {
  env?: Record<string, string>;
  /** Modules besides the one under test (ScheduleModule.forRoot() for its schedules, …). */
  imports?: Imports;
  /** Providers replaced by the test's own (token → value). */
  overrides?: [token: unknown, value: unknown][];
  /** Start a fake SMTP server and point SMTP_URL at it (closed with the test). */
  mail?: boolean;
}

export interface ServiceTest {
  module: TestingModule;
  database: TestDatabase;
  redisPrefix: string;
  dataSource: DataSource;
  /** The fake SMTP server the services mail to, with `mail: true`. */
  smtp: FakeSmtp;
  /** A provider of the module or of any module it imports. */
  get<T>(token: unknown): T;
  /** Closes the module; drops the database and the Redis keys. */
  close(): Promise<void>;
}

/**
 * The global modules the app imports, which every module stands on: configuration, the shared
 * singletons, PostgreSQL, Redis, the unit of work with its outbox and queues (a module's writes
 * record their events) and the idempotency store (of the routes' interceptors).
 */
const PLATFORM: Imports = [
  ConfigModule,
  CommonModule,
  // Every entity: the loaded ones' relations point to other modules' entities.
  DatabaseModule.forSomeModules(),
  RedisModule,
  EventsModule,
  IdempotencyModule,
];

/**
 * One module and what it imports, on a database of its own cloned from the migrated template and
 * Redis keys of its own, without HTTP: no routes, guards, OpenAPI document or `setupApp`. For the
 * rules services hold (test/service); routes, statuses and headers are the e2e tests' (createTestApp).
 */
export async function createServiceTest(
  module: Imports[number],
  options: ServiceTestOptions = {},
): Promise<ServiceTest> {
  const database = await createTestDatabase();
  const redisPrefix = testRedisPrefix();
  const smtp = options.mail ? await FakeSmtp.start() : undefined;
  setTestEnv(database, redisPrefix, smtp, options.env);
  let compiled: TestingModule | undefined;
  const close = async () => {
    await compiled?.close();
    await smtp?.close();
    restoreEnv(options.env, smtp);
    await database.drop();
    await deleteRedisKeys(redisPrefix, process.env.REDIS_URL);
  };
  try {
    const builder = Test.createTestingModule({
      imports: [...PLATFORM, module, ...(options.imports ?? [])],
    });
    for (const [token, value] of options.overrides ?? []) {
      builder.overrideProvider(token as never).useValue(value);
    }
    compiled = await builder.compile();
    // The lifecycle hooks (record resolvers, consumers, the outbox relay) as the app runs them.
    await compiled.init();
  } catch (err) {
    await close();
    throw err;
  }
  const testing = compiled;
  const get = <T>(token: unknown) => testing.get(token as never, { strict: false }) as T;
  return {
    module: testing,
    database,
    redisPrefix,
    dataSource: get<DataSource>(DataSource),
    get smtp(): FakeSmtp {
      if (!smtp)
        throw new Error('createServiceTest(module, { mail: true }) starts the fake SMTP server');
      return smtp;
    },
    get,
    close,
  };
}
