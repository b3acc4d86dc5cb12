import { InjectQueue, OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { BillingConfig } from '../../config';
import {
  BILLING_COUNT_PUSH,
  EventConsumers,
  EventEnvelope,
  OnDomainEvent,
  QueueName,
} from '../../events';
import { CountPusher } from './count-pusher.service';
import { CountSyncRepository } from './count-sync.repository';

/**
 * The cap table's `billing.*` count events. Each marks its organization's counts as changed
 * (once per event) and asks for a push in BILLING_COUNTS_DEBOUNCE_MS; while that push waits,
 * further events join it. Registered even when billing is off: the events are then marked pushed
 * without a call, rather than left waiting in the outbox.
 */
@OnDomainEvent((type) => type.startsWith('billing.'))
@Processor(QueueName.BillingCounts)
export class CountPushConsumer {
  private readonly logger = new Logger('BillingCounts');

  constructor(
    private readonly events: EventConsumers,
    private readonly syncs: CountSyncRepository,
    private readonly pusher: CountPusher,
    private readonly env: BillingConfig,
    @InjectQueue(QueueName.BillingCounts) private readonly queue: Queue,
  ) {}

  @Process()
  async handle(job: Job<EventEnvelope>): Promise<void> {
    const organizationId = job.data.organization;
    // Its marker all the same: the re-relay looks for one per event the queue was handed.
    if (!organizationId) return this.events.mark(QueueName.BillingCounts, job.data.id);
    await this.events.once(QueueName.BillingCounts, job.data.id, (manager) =>
      this.syncs.request(manager, organizationId),
    );
    // Also after a redelivery: the push may be what was lost. A lost add is the sweep's to redo.
    await this.schedule(organizationId, this.env.BILLING_COUNTS_DEBOUNCE_MS);
  }

  @Process(BILLING_COUNT_PUSH.name)
  async push(job: Job<{ organizationId: string }>): Promise<void> {
    const { organizationId } = job.data;
    await this.pusher.push(organizationId);
    // Changes during the push could not join this job (it was running): they get one of their own.
    const sync = await this.syncs.find(organizationId);
    if (sync && sync.requestedSeq > sync.pushedSeq) {
      await this.queue.add(
        BILLING_COUNT_PUSH.name,
        { organizationId },
        {
          ...BILLING_COUNT_PUSH.options,
          jobId: `${BILLING_COUNT_PUSH.jobId(organizationId)}:after:${sync.pushedSeq}`,
          delay: this.env.BILLING_COUNTS_DEBOUNCE_MS,
        },
      );
    }
  }

  /** Adds the organization's push unless one is waiting (then this change joins it). */
  async schedule(organizationId: string, delayMs: number): Promise<void> {
    await this.queue.add(
      BILLING_COUNT_PUSH.name,
      { organizationId },
      {
        ...BILLING_COUNT_PUSH.options,
        jobId: BILLING_COUNT_PUSH.jobId(organizationId),
        delay: delayMs,
      },
    );
  }

  @OnQueueFailed()
  onFailed(job: Job, err: Error) {
    this.logger.warn(
      `billing counts job ${job.id} failed (attempt ${job.attemptsMade}): ${err.message}`,
    );
  }
}
