import type { JobOptions } from 'bull';
import type { EventEnvelope } from './event-envelope';

/** Every Bull queue of the service. Jobs on the event queues carry one domain event each. */
export enum QueueName {
  Activity = 'activity',
  BillingCounts = 'billing-counts',
  Webhooks = 'webhooks',
  AgentOnboarding = 'agent-onboarding',
  Chat = 'chat',
  AgentHeartbeat = 'agent-heartbeat',
  AgentHookRun = 'agent-hook-run',
  Referral = 'referral',
  CreditRedemption = 'credit-redemption',
  DriveSync = 'drive-sync',
}

/** The payload type of each queue's jobs. */
export interface QueuePayloads {
  [QueueName.Activity]: EventEnvelope;
  [QueueName.BillingCounts]: EventEnvelope;
  [QueueName.Webhooks]: EventEnvelope;
  [QueueName.AgentOnboarding]: { onboardingId: string };
  [QueueName.Chat]: EventEnvelope;
  [QueueName.AgentHeartbeat]: { organizationId: string };
  [QueueName.AgentHookRun]: { runId: string; request: unknown };
  [QueueName.Referral]: EventEnvelope;
  [QueueName.CreditRedemption]: { entityId: string };
  [QueueName.DriveSync]: DriveSyncJob;
}

/**
 * A run of one cloud-drive sync configuration (queue DriveSync, no events). `runId` names the
 * history row the run writes, so the trigger that queued it can wait for that row; a scheduled
 * run has no `triggeredByUserId` (it acts as the configuration's creator).
 */
export interface DriveSyncJob {
  runId: string;
  organizationId: string;
  configurationId: string;
  triggeredByUserId: string | null;
  /** Epoch milliseconds. */
  triggeredAt: number;
}

/**
 * Outbound webhook deliveries (queue Webhooks, besides its event jobs, which fan an event out to
 * the endpoints): 6 attempts per delivery, the first at once, then each after the delay from the
 * failed one before it (spec section 6). The retry state is the delivery row's in PostgreSQL;
 * a `drain` job only wakes the worker for one endpoint at one time (`drain:<endpoint>:<second>`,
 * so wake-ups for the same second coalesce), and is never retried itself: a lost one is the
 * sweep's to redo.
 */
export const WEBHOOK_DELIVERY = {
  attempts: 6,
  retryDelaysMs: [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 24 * 3600_000] as const,
  drain: {
    name: 'drain',
    jobId: (endpointId: string, dueSecond: number) => `drain:${endpointId}:${dueSecond}`,
    options: { attempts: 1, removeOnComplete: true, removeOnFail: true } satisfies JobOptions,
  },
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

/**
 * The first analysis of an AI-assisted onboarding (queue AgentOnboarding, no events): one job
 * per onboarding (`analysis:<id>`), 3 attempts 5 s apart while the language model is unavailable.
 */
export const ONBOARDING_ANALYSIS = {
  name: 'analyse',
  jobId: (onboardingId: string) => `analysis:${onboardingId}`,
  options: {
    attempts: 3,
    backoff: { type: 'fixed', delay: 5_000 },
    removeOnComplete: true,
    removeOnFail: { age: 24 * 3600 },
  } satisfies JobOptions,
};

/**
 * A gateway hooks' heartbeat of one organization (queue AgentHeartbeat): one job per organization
 * at a time (`heartbeat:<organization>`), so a burst of wakes is one turn; removed once done, so
 * the next wake queues another. Not retried: the events it took are the next one's otherwise.
 */
export const AGENT_HEARTBEAT = {
  name: 'heartbeat',
  jobId: (organizationId: string) => `heartbeat:${organizationId}`,
  options: { attempts: 1, removeOnComplete: true, removeOnFail: true } satisfies JobOptions,
};

/**
 * A gateway hook's isolated agent turn (queue AgentHookRun), its job id the run id. Not retried:
 * a run may have proposed steps; its failure is reported to the main conversation instead.
 */
export const AGENT_HOOK_RUN = {
  name: 'run',
  options: {
    attempts: 1,
    removeOnComplete: { age: 3600, count: 1000 },
    removeOnFail: { age: 24 * 3600 },
  } satisfies JobOptions,
};

/**
 * Applying an organization entity's credit to its invoices (queue CreditRedemption, no events),
 * when doing it at once failed (the billing provider unreachable): one job per entity at a time
 * (`redeem:<entity>`), 10 attempts from 5 s apart, doubling (about 85 minutes in all). Each
 * attempt redeems the whole balance then.
 */
export const CREDIT_REDEMPTION = {
  name: 'redeem',
  jobId: (entityId: string) => `redeem:${entityId}`,
  options: {
    attempts: 10,
    backoff: { type: 'exponential', delay: 5_000 },
    removeOnComplete: true,
    removeOnFail: { age: 7 * 24 * 3600 },
  } satisfies JobOptions,
};

/**
 * A run of a cloud-drive sync configuration (queue DriveSync): one job per configuration at a
 * time (`drive-sync:<configuration>`), so a trigger while one is queued or running joins it.
 * Removed once done or failed, or Bull would ignore the next trigger while the old job is kept.
 * Not retried: a failed run is recorded in its history row, and the next trigger runs again.
 */
export const DRIVE_SYNC = {
  name: 'sync',
  jobId: (configurationId: string) => `drive-sync:${configurationId}`,
  options: { attempts: 1, removeOnComplete: true, removeOnFail: true } satisfies JobOptions,
};
