import { Global, Module } from '@nestjs/common';
import { ConfigModule as NestConfigModule } from '@nestjs/config';
import { Env, validateEnv } from './env.schema';
import { loadEnv } from './load-env';

/**
 * Loads `.env` (when present), validates every variable once at start-up and exposes the typed
 * result as the injectable `Env`. Nothing outside this folder reads the process environment.
 */
@Global()
@Module({
  imports: [
    NestConfigModule.forRoot({ envFilePath: ['.env'], validate: validateEnv, cache: true }),
  ],
  providers: [{ provide: Env, useFactory: () => loadEnv() }],
  exports: [Env],
})
export class ConfigModule {}
