import { Global, Module } from '@nestjs/common';
import { ConfigModule as NestConfigModule } from '@nestjs/config';
import { Env, validateEnv } from './env.schema';

/**
 * Loads `.env` (when present) into the environment, validates every variable once at start-up and
 * exposes the typed result as the injectable `Env`.
 */
@Global()
@Module({
  imports: [
    NestConfigModule.forRoot({ envFilePath: ['.env'], validate: validateEnv, cache: true }),
  ],
  providers: [{ provide: Env, useFactory: () => validateEnv(process.env) }],
  exports: [Env],
})
export class ConfigModule {}

export const DEV_SESSION_SECRET = 'development-only-session-secret-not-for-production';

export const isProduction = (env: Env) => env.NODE_ENV === 'production';
