import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { portAnswers } from '../../src/common';
import { ENTITY_GLOBS, typeormOptions } from '../../src/database/typeorm-options';
import { useEmbeddedPostgres } from '../../src/database/embedded';
import { adminQuery, quoteIdent, withDatabase } from '../../scripts/pg-admin';

/**
 * The PostgreSQL server for tests: DATABASE_URL's server when set, else 127.0.0.1:5432 when it
 * answers, else an embedded one started for the run.
 */
export async function testPostgresServer(): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: withDatabase(process.env.DATABASE_URL, 'postgres') };
  if (await portAnswers('127.0.0.1', 5432))
    return { url: 'postgres://postgres@127.0.0.1:5432/postgres' };
  const embedded = await useEmbeddedPostgres(
    process.env.EMBEDDED_POSTGRES_DIR ?? './.data/postgres-test',
  );
  return embedded;
}

/** Creates `name` and applies every migration: the template each test file's database clones. */
export async function createMigratedTemplate(serverUrl: string, name: string): Promise<void> {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  await adminQuery(serverUrl, `CREATE DATABASE ${quoteIdent(name)}`);
  const ds = new DataSource({
    ...typeormOptions(withDatabase(serverUrl, name)),
    entities: ENTITY_GLOBS,
  });
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
}

/** A fresh database cloned from the template: milliseconds, so every test file gets its own. */
export async function cloneDatabase(
  serverUrl: string,
  template: string,
  name: string,
): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(
        serverUrl,
        `CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`,
      );
      return withDatabase(serverUrl, name);
    } catch (err) {
      // Two clones of one template at the same instant can collide; they succeed on retry.
      if (attempt >= 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
}
