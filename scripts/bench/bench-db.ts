import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { loadEnv } from '../../src/config';
import { ENTITY_GLOBS, typeormOptions } from '../../src/database/typeorm-options';
import { adminQuery, quoteIdent, withDatabase } from '../pg-admin';

/** The bench's own databases: made and migrated, then dropped with their Redis keys. */

/** The PostgreSQL server and Redis of the bench (DATABASE_URL's server, REDIS_URL). */
export function servers() {
  const env = loadEnv();
  return {
    server: env.DATABASE_URL
      ? withDatabase(env.DATABASE_URL, 'postgres')
      : 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

/** A new database on `server`, migrated; answers its URL. */
export async function createDatabase(server: string, database: string): Promise<string> {
  const databaseUrl = withDatabase(server, database);
  await adminQuery(server, `CREATE DATABASE ${quoteIdent(database)}`);
  const ds = await new DataSource({
    ...typeormOptions(databaseUrl),
    entities: ENTITY_GLOBS,
  }).initialize();
  await ds.runMigrations({ transaction: 'each' });
  await ds.destroy();
  return databaseUrl;
}

/** A bench database dropped and its Redis keys deleted. */
export async function dropBench(
  server: string,
  database: string,
  redisUrl: string,
  prefix: string,
) {
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${prefix}*`).catch(() => [] as string[]);
  if (keys.length) await redis.del(...keys).catch(() => undefined);
  await redis.quit().catch(() => undefined);
  await adminQuery(server, `DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
}
