import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExpiredKeysRetention } from './expired-keys.retention';
import { IdempotencyKey } from './idempotency-key.entity';
import { IdempotencyStore } from './idempotency-store';

/**
 * `Idempotency-Key` for the writes marked `@Idempotent()`. Global, imported once by the app: the
 * interceptor is built in the module of each controller that uses it, and needs the store there.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKey])],
  providers: [IdempotencyStore, ExpiredKeysRetention],
  exports: [IdempotencyStore],
})
export class IdempotencyModule {}
