import { Global, Module, Provider } from '@nestjs/common';
import { ConfigModule as NestConfigModule } from '@nestjs/config';
import { CONFIG_SLICES, Env, validateEnv } from './env.schema';
import { loadEnv } from './load-env';
import { viewOf } from './slice';

/** Each slice's class as its own token: the slice's variables, taken from the validated whole. */
const sliceProviders: Provider[] = CONFIG_SLICES.map((slice) => ({
  provide: slice.schema,
  inject: [Env],
  useFactory: (env: Env) => viewOf(env, slice.schema),
}));

/**
 * Loads `.env` (when present), validates every variable once at start-up and exposes the typed
 * result as the injectable `Env`, and each slice (`ChatConfig`, `BillingConfig`, ...) as its own.
 * Nothing outside this folder reads the process environment.
 */
@Global()
@Module({
  imports: [
    NestConfigModule.forRoot({ envFilePath: ['.env'], validate: validateEnv, cache: true }),
  ],
  providers: [{ provide: Env, useFactory: () => loadEnv() }, ...sliceProviders],
  exports: [Env, ...CONFIG_SLICES.map((slice) => slice.schema)],
})
export class ConfigModule {}
