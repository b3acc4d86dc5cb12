import type { JobOptions } from 'bull';
import type { EventEnvelope } from './event-envelope';

/** Every Bull queue of the service. Jobs on the event queues carry one domain event each. */
export enum QueueName {
  Activity = 'activity',
  BillingCounts = 'billing-counts',
}

/** The payload type of each queue's jobs. */
export interface QueuePayloads {
  [QueueName.Activity]: EventEnvelope;
  [QueueName.BillingCounts]: EventEnvelope;
}

/**
 * Which domain events each queue receives. `billing.*` events (a member or shareholder count
 * changed) are for the billing provider only; every other event is an activity-log entry.
 */
export const EVENT_ROUTES: Record<QueueName, (type: string) => boolean> = {
  [QueueName.Activity]: (type) => !type.startsWith('billing.'),
  [QueueName.BillingCounts]: (type) => type.startsWith('billing.'),
};

/** Attempts, backoff and retention for every job, set once here. */
export const defaultJobOptions = (attempts: number): JobOptions => ({
  attempts,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 5000 },
  removeOnFail: { age: 7 * 24 * 3600 },
});
