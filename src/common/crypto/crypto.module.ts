import { Global, Logger, Module } from '@nestjs/common';
import { Env } from '../../config/env.schema';
import { parseKey, SecretBox } from './secret-box';

/**
 * Development-only key, used when ENCRYPTION_KEY is unset outside production (validateEnv makes
 * it mandatory in production). Values sealed with it are not secret.
 */
const DEV_ENCRYPTION_KEY = 'ledgerline-development-only-key!';

/** Provides the SecretBox keyed by ENCRYPTION_KEY; import it once, it is global. */
@Global()
@Module({
  providers: [
    {
      provide: SecretBox,
      inject: [Env],
      useFactory: (env: Env) => {
        if (env.ENCRYPTION_KEY) return new SecretBox(parseKey(env.ENCRYPTION_KEY));
        new Logger('Crypto').warn('ENCRYPTION_KEY is not set: using the development-only key');
        return new SecretBox(Buffer.from(DEV_ENCRYPTION_KEY, 'utf8'));
      },
    },
  ],
  exports: [SecretBox],
})
export class CryptoModule {}
