// Idempotency-Key on writes: the module (imported once by the app) and the route decorator.
export { IdempotencyModule } from './idempotency.module';
export { Idempotent } from './idempotent.decorator';
