import { Injectable } from '@nestjs/common';
import { DAY, Retention } from '../scheduler';

/** How long the event list keeps an event (issue 21). */
export const EVENT_RETENTION_DAYS = 30;

/**
 * Once a day across instances, the outbox rows relayed more than 30 days ago (by their `created`)
 * go, 1,000 a statement and at most 100 statements a run; rows not yet relayed stay whatever
 * their age.
 */
@Retention({
  owner: 'events',
  name: 'events:outbox-cleanup',
  table: 'outbox_event',
  age: 'created',
  olderThan: EVENT_RETENTION_DAYS * DAY,
  where: 'relayed_at IS NOT NULL',
})
@Injectable()
export class OutboxRetention {}
