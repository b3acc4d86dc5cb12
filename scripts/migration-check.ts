/**
 * Fails when the entities and the committed migrations disagree: migrates a scratch database and
 * asks TypeORM what it would still change. Run by CI (`npm run migration:check`).
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadEnv } from '../src/config';
import { ENTITY_GLOBS, typeormOptions } from '../src/database/typeorm-options';
import { adminQuery, quoteIdent, withDatabase } from './pg-admin';

async function main() {
  const base = loadEnv().DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `ledgerline_migration_check_${process.pid}`;
  await adminQuery(base, `CREATE DATABASE ${quoteIdent(name)}`);
  const ds = new DataSource({
    ...typeormOptions(withDatabase(base, name)),
    entities: ENTITY_GLOBS,
  });
  try {
    await ds.initialize();
    const applied = await ds.runMigrations({ transaction: 'each' });
    const pending = await ds.driver.createSchemaBuilder().log();
    if (pending.upQueries.length) {
      console.error('Entities and migrations disagree. A new migration would run:\n');
      for (const q of pending.upQueries) console.error(`  ${q.query};`);
      console.error(
        '\nRun `npm run migration:generate -- src/database/migrations/<Name>` and review it.',
      );
      process.exitCode = 1;
    } else {
      console.log(
        `migration:check: ${applied.length} migrations applied; entities and migrations agree.`,
      );
    }
  } finally {
    if (ds.isInitialized) await ds.destroy();
    await adminQuery(base, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
