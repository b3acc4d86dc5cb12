import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { readTally } from '../../cap-table';
import { BillingProvider } from '../provider/billing-provider';
import { SubscriptionRepository } from '../store/subscription.repository';
import { CountSyncRepository } from './count-sync.repository';

export type PushOutcome = 'current' | 'no-subscription' | 'unchanged' | 'pushed';

/**
 * Pushes an organization's seat counts as they are now: both components in one allocations
 * call, carrying a uniqueness token of the change sequence and the counts (a retried push of the
 * same counts is not charged twice; other counts are another allocation). One push per
 * organization at a time, across instances: a slower push can never land after a newer one.
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

  async push(organizationId: string): Promise<PushOutcome> {
    return this.dataSource.transaction(async (manager) => {
      // Held across the provider's call (at most its timeout and retries), by this push only.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `billing-counts:${organizationId}`,
      ]);
      return this.pushNow(organizationId);
    });
  }

  private async pushNow(organizationId: string): Promise<PushOutcome> {
    const sync = await this.syncs.find(organizationId);
    if (!sync || sync.requestedSeq <= sync.pushedSeq) return 'current';
    // Read before the counts: a change after this read asks for another push.
    const seq = sync.requestedSeq;
    const live = this.provider.configured ? await this.subscriptions.live(organizationId) : null;
    if (!live) {
      // Nothing to push to: the signup will carry the counts of its moment.
      await this.syncs.pushed(organizationId, seq);
      return 'no-subscription';
    }
    const seats = await readTally(this.dataSource.manager, organizationId);
    if (seats.members === sync.pushedMembers && seats.shareholders === sync.pushedShareholders) {
      await this.syncs.pushed(organizationId, seq);
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
    await this.syncs.pushed(organizationId, seq, seats);
    this.logger.log(
      `organization ${organizationId}: ${seats.members} members, ${seats.shareholders} shareholders pushed`,
    );
    return 'pushed';
  }
}
