import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import type { FakeSmtp } from '../fakes/smtp';
import { adminQuery, quoteIdent, withDatabase } from '../../scripts/pg-admin';
import { cloneDatabase, dropDatabase } from './postgres';

/**
 * What keeps a test file's app or services to themselves: a database cloned from the migrated
 * template, a Redis key prefix, and the environment pointing at both. Loads nothing of the app,
 * so that a service test (service.ts) loads only the module it tests.
 */

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

/** A database of its own with nothing in it, not even the migrations (a test of start-up). */
export async function createEmptyTestDatabase(): Promise<TestDatabase> {
  const server = process.env.TEST_PG_SERVER_URL;
  if (!server) throw new Error('e2e tests need the jest globalSetup (run them with jest)');
  const name = `ledgerline_test_${process.pid}_${randomBytes(4).toString('hex')}_empty`;
  await adminQuery(server, `CREATE DATABASE ${quoteIdent(name)}`);
  return { name, url: withDatabase(server, name), drop: () => dropDatabase(server, name) };
}

export const TEST_FRONTEND_URL = 'http://frontend.test';

/**
 * The secrets of every test app and test instance: one ENCRYPTION_KEY, as every instance on one
 * database must have (its fingerprint is kept in the database).
 */
export const TEST_SECRETS = {
  SESSION_SECRET: 'test-session-secret-of-at-least-thirty-two-chars',
  ENCRYPTION_KEY: '0'.repeat(63) + '1',
};

/** The environment of a test app or service test: its own database and Redis keys. */
export function setTestEnv(
  database: TestDatabase,
  redisPrefix: string,
  smtp?: FakeSmtp,
  env: Record<string, string> = {},
) {
  Object.assign(process.env, {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_PREFIX: redisPrefix,
    FRONTEND_URL: TEST_FRONTEND_URL,
    ...TEST_SECRETS,
    OUTBOX_RELAY_INTERVAL_MS: '50',
    // supertest connects over loopback: the tests play the proxy that sets X-Forwarded-For.
    TRUST_PROXY: 'loopback',
    ...(smtp ? { SMTP_URL: smtp.url } : {}),
    ...env,
  });
}

/** A Redis key prefix of its own for one test app or service test. */
export const testRedisPrefix = () => `lltest:${randomBytes(4).toString('hex')}:`;

/** Unsets the variables a test app set, unless something has set them to another value since. */
export function restoreEnv(env: Record<string, string> = {}, smtp?: FakeSmtp) {
  const set = { ...(smtp ? { SMTP_URL: smtp.url } : {}), ...env };
  for (const [key, value] of Object.entries(set)) {
    if (process.env[key] === value) delete process.env[key];
  }
}

export async function deleteRedisKeys(prefix: string, url = 'redis://127.0.0.1:6379') {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    // Bull's keys start with the prefix inside a hash tag (`{<prefix>bull}`, Redis Cluster).
    for (const pattern of [`${prefix}*`, `{${prefix}*`]) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
  } catch {
    // best effort: the prefix is unique to this run anyway
  } finally {
    redis.disconnect();
  }
}
