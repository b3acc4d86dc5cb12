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

/**
 * A push of an organization's seat counts to the billing provider (queue BillingCounts, besides
 * its event jobs): one job per organization at a time (`counts:<organization>`), so a burst of
 * changes is one push. Removed once done or failed, so the next change (or the sweep) can add it
 * again; a failed push is retried from 10 s, 8 attempts in all.
 */
export const BILLING_COUNT_PUSH = {
  name: 'push',
  jobId: (organizationId: string) => `counts:${organizationId}`,
  options: {
    attempts: 8,
    backoff: { type: 'exponential', delay: 10_000 },
    removeOnComplete: true,
    removeOnFail: true,
  } satisfies JobOptions,
};

/** Attempts, backoff and retention for every job, set once here. */
export const defaultJobOptions = (attempts: number): JobOptions => ({
  attempts,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 5000 },
  removeOnFail: { age: 7 * 24 * 3600 },
});
