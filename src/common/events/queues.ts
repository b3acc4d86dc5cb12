import type { JobOptions } from 'bull';
import type { EventEnvelope } from './event-envelope';

/** Every Bull queue of the service. Jobs on the event queues carry one domain event each. */
export enum QueueName {
  Activity = 'activity',
  BillingCounts = 'billing-counts',
  Webhooks = 'webhooks',
  DriveSync = 'drive-sync',
}

/** The payload type of each queue's jobs. */
export interface QueuePayloads {
  [QueueName.Activity]: EventEnvelope;
  [QueueName.BillingCounts]: EventEnvelope;
  [QueueName.Webhooks]: EventEnvelope;
  [QueueName.DriveSync]: { organizationId: string; configurationId?: string };
}

/** Which domain events each event queue receives. */
export const EVENT_ROUTES: Partial<Record<QueueName, (type: string) => boolean>> = {
  [QueueName.Activity]: () => true,
  [QueueName.Webhooks]: () => true,
  [QueueName.BillingCounts]: (type) =>
    [
      'shareholding.created',
      'shareholding.voided',
      'shareholding.transferred',
      'holding.created',
      'holding.deleted',
      'plan.deleted',
    ].includes(type),
};

/** Attempts, backoff and retention for every job, set once here. */
export const defaultJobOptions = (attempts: number): JobOptions => ({
  attempts,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 5000 },
  removeOnFail: { age: 7 * 24 * 3600 },
});
