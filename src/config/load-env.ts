import { existsSync } from 'node:fs';
import { Env, validateEnv } from './env.schema';

/**
 * The one reader of the process environment. `.env` (when present) fills in what the environment
 * does not set; then every variable is validated. main.ts, the CLI, the migration data source and
 * the Nest ConfigModule all read their configuration through here.
 */
export function loadEnv(envFile = '.env'): Env {
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  return validateEnv(process.env);
}

export const isProduction = (env: Env) => env.NODE_ENV === 'production';

export const DEV_SESSION_SECRET = 'development-only-session-secret-not-for-production';

/** NODE_ENV as set, before (and whatever) the rest of the configuration validates. */
export const declaredNodeEnv = (): string | undefined => process.env.NODE_ENV;
