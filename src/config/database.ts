import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { configSlice } from './slice';
import { emptyToUndefined, integer, toInt } from './variable-rules';

/** The largest statement_timeout PostgreSQL takes (ms, a 32-bit integer). */
const PG_MAX_TIMEOUT_MS = 2_147_483_647;

/** The PostgreSQL server (or the embedded one) and how long one statement may run. */
export class DatabaseConfig {
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsString()
  EMBEDDED_POSTGRES_DIR = './.data/postgres';

  /**
   * PostgreSQL's statement_timeout on every connection of the app: a statement that runs (or
   * waits for a lock) longer is cancelled and its request answered 503. Bounds what one request
   * can make the database do.
   */
  @Transform(toInt)
  @IsInt(integer(1, PG_MAX_TIMEOUT_MS))
  @Min(1, integer(1, PG_MAX_TIMEOUT_MS))
  @Max(PG_MAX_TIMEOUT_MS, integer(1, PG_MAX_TIMEOUT_MS))
  DATABASE_STATEMENT_TIMEOUT_MS = 15_000;

  /**
   * The limit inside the transactions of imports and exports (which raise it for themselves),
   * and on the connections of the CLI.
   */
  @Transform(toInt)
  @IsInt(integer(1, PG_MAX_TIMEOUT_MS))
  @Min(1, integer(1, PG_MAX_TIMEOUT_MS))
  @Max(PG_MAX_TIMEOUT_MS, integer(1, PG_MAX_TIMEOUT_MS))
  DATABASE_LONG_STATEMENT_TIMEOUT_MS = 300_000;

  /**
   * How long a write's claim of its `Idempotency-Key` (a row here) holds without being renewed:
   * the request renews it three times a lease while it runs, so a retry may take the key over only
   * this long after the process running the request died. Shorter in tests of that takeover.
   */
  @Transform(toInt)
  @IsInt(integer(1000, 86_400_000))
  @Min(1000, integer(1000, 86_400_000))
  @Max(86_400_000, integer(1000, 86_400_000))
  IDEMPOTENCY_LEASE_MS = 60_000;
}

export const databaseSlice = configSlice({
  name: 'database',
  schema: DatabaseConfig,
  check: (env) =>
    Number.isInteger(env.DATABASE_LONG_STATEMENT_TIMEOUT_MS) &&
    env.DATABASE_LONG_STATEMENT_TIMEOUT_MS < env.DATABASE_STATEMENT_TIMEOUT_MS
      ? [
          `  DATABASE_LONG_STATEMENT_TIMEOUT_MS: must be at least DATABASE_STATEMENT_TIMEOUT_MS (${env.DATABASE_STATEMENT_TIMEOUT_MS})`,
        ]
      : [],
});
