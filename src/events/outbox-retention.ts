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
/**
 * The consumers' processed markers go 30 days after they were written: longer than Bull keeps a
 * job (a failed one a week) and than the re-relay looks back (a day), so no event is handed to a
 * queue again without its marker.
 */
@Retention({
  owner: 'events',
  name: 'events:processed-cleanup',
  table: 'processed_event',
  age: 'processed_at',
  olderThan: EVENT_RETENTION_DAYS * DAY,
  key: '(consumer, event_id)',
})
@Injectable()
export class OutboxRetention {}
