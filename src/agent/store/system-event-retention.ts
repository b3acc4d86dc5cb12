import { Injectable } from '@nestjs/common';
import { DAY, Retention } from '../../scheduler';

/** How long a system event is kept: consumed ones as a record, pending ones waiting a heartbeat. */
export const SYSTEM_EVENT_RETENTION_DAYS = 7;

/**
 * Once a day across instances, the system events consumed more than a week ago (their text
 * reached the conversation) and the pending ones a week old (no heartbeat took them: the
 * organization's agent is idle or its heartbeats fail) go, so neither piles up without bound.
 */
@Retention({
  owner: 'agent',
  name: 'agent:system-event-cleanup',
  table: 'agent_system_event',
  age: 'COALESCE(consumed_at, created)',
  olderThan: SYSTEM_EVENT_RETENTION_DAYS * DAY,
})
@Injectable()
export class SystemEventRetention {}
