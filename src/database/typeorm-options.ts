import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy';
import { ObservedLogger } from './statement-observers';
import { StatementLimits, statementLimitParameters } from './statement-limits';

/**
 * The one definition of how we talk to PostgreSQL, shared by the app, the migration CLI and the
 * test harness. `synchronize` is off for good: the schema only changes through migrations.
 * Without `limits` statements run as long as they take (migrations, the test harness).
 */
export function typeormOptions(url: string, limits?: StatementLimits): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    // gen_random_uuid() is built into PostgreSQL 13+; no uuid-ossp extension needed.
    uuidExtension: 'pgcrypto',
    migrationsRun: false,
    namingStrategy: new SnakeNamingStrategy(),
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    // Logs what TypeORM's default logger logs (no `logging`: errors of migrations, slow queries).
    logger: new ObservedLogger(),
    extra: {
      max: 10,
      connectionTimeoutMillis: 5000,
      ...(limits ? statementLimitParameters(limits) : {}),
    },
  };
}

/** Entity files, for the data sources that are not built by Nest (CLI, tests, scripts). */
export const ENTITY_GLOBS = [join(__dirname, '..', '**', '*.entity.{ts,js}')];
