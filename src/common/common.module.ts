import { Global, Logger, Module } from '@nestjs/common';
import { Env } from '../config';
import { parseKey, SecretBox } from './crypto/secret-box';
import { TokenService } from './crypto/token.service';
import { ApiDocument } from './http/api-document';
import { ShutdownState } from './http/graceful-shutdown';
import { InProcessRequests } from './http/in-process-requests';
import { ListResponder } from './http/list-responder';
import { MachineVerifiers } from './http/machine-access';
import { RecordResolvers } from './http/record-resolvers';
import { UploadSlots } from './http/upload-slots';
import { Clock } from './time/clock';

/**
 * Development-only key, used when ENCRYPTION_KEY is unset outside production (validateEnv makes
 * it mandatory in production). Values sealed with it are not secret.
 */
const DEV_ENCRYPTION_KEY = 'ledgerline-development-only-key!';

/**
 * The shared singletons of Common: the registries every module adds its record resolvers and
 * machine verifiers to, the SecretBox keyed by ENCRYPTION_KEY, the TokenService, the ListResponder
 * (with its cache) and the UploadSlots every upload route counts its callers' uploads in,
 * InProcessRequests (requests of this API run in process as their caller), the ShutdownState
 * (draining or not, for /health) and the Clock (tests replace it with one they move).
 * Global, imported once by the app.
 */
@Global()
@Module({
  providers: [
    RecordResolvers,
    MachineVerifiers,
    {
      provide: SecretBox,
      inject: [Env],
      useFactory: (env: Env) => {
        if (env.ENCRYPTION_KEY) return new SecretBox(parseKey(env.ENCRYPTION_KEY));
        new Logger('Crypto').warn('ENCRYPTION_KEY is not set: using the development-only key');
        return new SecretBox(Buffer.from(DEV_ENCRYPTION_KEY, 'utf8'));
      },
    },
    TokenService,
    ListResponder,
    UploadSlots,
    InProcessRequests,
    ApiDocument,
    ShutdownState,
    Clock,
  ],
  exports: [
    RecordResolvers,
    MachineVerifiers,
    SecretBox,
    TokenService,
    ListResponder,
    UploadSlots,
    InProcessRequests,
    ApiDocument,
    ShutdownState,
    Clock,
  ],
})
export class CommonModule {}
