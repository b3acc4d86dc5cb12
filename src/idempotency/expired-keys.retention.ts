import { Injectable } from '@nestjs/common';
import { MINUTE, Retention } from '../scheduler';

/**
 * Every ten minutes across instances, the keys past their 24 hours (which already count as
 * absent) go: 1,000 a statement, at most 10 statements a run.
 */
@Retention({
  owner: 'idempotency',
  name: 'idempotency:key-sweep',
  table: 'idempotency_key',
  key: '(user_id, key)',
  age: 'expires_at',
  olderThan: 0,
  every: 10 * MINUTE,
  batch: 1000,
  batchesPerRun: 10,
})
@Injectable()
export class ExpiredKeysRetention {}
