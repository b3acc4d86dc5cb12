import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * The route honours an `Idempotency-Key` header (issue 20): the first answer to a key is kept 24
 * hours with the caller, the method, the path and a hash of the body; a retry with the same key
 * and request gets that answer again (`Idempotent-Replayed: true`) and writes nothing, the key
 * with another request is 422 `idempotencyKeyReused`, a retry while the first still runs 409
 * `idempotencyKeyInProgress`. Without the header nothing changes. `completeDocument` documents
 * the header and the answers on every route marked so. On an upload route write it above
 * `@Multipart`: the form must be read before it is hashed.
 */
export const Idempotent = () =>
  applyDecorators(UseInterceptors(IdempotencyInterceptor), ApiExtension('x-idempotent', true));
