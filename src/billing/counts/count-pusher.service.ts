import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { readTally } from '../../cap-table';
import { BillingProvider } from '../provider/billing-provider';
import type { CountSync } from '../store/count-sync.entity';
import { SubscriptionRepository } from '../store/subscription.repository';
import { CountSyncRepository } from './count-sync.repository';

export type PushOutcome = 'current' | 'busy' | 'no-subscription' | 'unchanged' | 'pushed';

/**
 * How long a push holds its organization's lease: longer than its provider call can last (10 s
 * per attempt, 3 attempts, their waits), so while a push runs no other starts.
 */
export const PUSH_LEASE_MS = 2 * 60_000;

/**
 * Pushes an organization's seat counts as they are now: both components in one allocations
 * call, carrying a uniqueness token of the change sequence and the counts (a retried push of the
 * same counts is not charged twice; other counts are another allocation). One push per
 * organization at a time, across instances, by a lease on its `billing_count_sync` row (taken
 * and ended by single statements: no transaction or lock is held across the provider's call), so
 * a slower push can never land after a newer one; a push that outlived its lease asks for one
 * more, which sets the counts of then.
 */
@Injectable()
export class CountPusher {
  private readonly logger = new Logger('BillingCounts');

  constructor(
    private readonly provider: BillingProvider,
    private readonly syncs: CountSyncRepository,
    private readonly subscriptions: SubscriptionRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** `busy` while another push of the organization runs (its follow-up takes these changes). */
  async push(organizationId: string): Promise<PushOutcome> {
    const lease = randomUUID();
    const sync = await this.syncs.lease(organizationId, lease, PUSH_LEASE_MS);
    if (sync === null) return 'current';
    if (sync === 'busy') return 'busy';
    try {
      return await this.pushUnderLease(organizationId, lease, sync);
    } catch (err) {
      await this.syncs.release(organizationId, lease);
      throw err;
    }
  }

  private async pushUnderLease(
    organizationId: string,
    lease: string,
    sync: CountSync,
  ): Promise<PushOutcome> {
    // Read before the counts: a change after this read asks for another push.
    const seq = sync.requestedSeq;
    if (seq <= sync.pushedSeq) {
      await this.syncs.release(organizationId, lease);
      return 'current';
    }
    const live = this.provider.configured ? await this.subscriptions.live(organizationId) : null;
    if (!live) {
      // Nothing to push to: the signup will carry the counts of its moment.
      await this.syncs.pushed(organizationId, lease, seq);
      return 'no-subscription';
    }
    const seats = await readTally(this.dataSource.manager, organizationId);
    if (seats.members === sync.pushedMembers && seats.shareholders === sync.pushedShareholders) {
      await this.syncs.pushed(organizationId, lease, seq);
      return 'unchanged';
    }
    await this.provider.allocate(live.providerId, {
      seats,
      memo: 'Seat counts',
      upgradeCharge: 'prorated',
      downgradeCredit: 'none',
      accrueCharge: true,
      uniquenessToken: `counts:${organizationId}:${live.providerId}:${seq}:${seats.members}:${seats.shareholders}`,
    });
    if (!(await this.syncs.pushed(organizationId, lease, seq, seats))) {
      this.logger.warn(
        `organization ${organizationId}: a push outlived its lease; pushing the counts again`,
      );
      await this.syncs.pushAgain(organizationId);
      return 'pushed';
    }
    this.logger.log(
      `organization ${organizationId}: ${seats.members} members, ${seats.shareholders} shareholders pushed`,
    );
    return 'pushed';
  }
}
