import { Injectable } from '@nestjs/common';
import { decimalToCents } from '../money';
import { BillingProvider } from '../provider/billing-provider';
import { SubscriptionRepository } from '../store/subscription.repository';

export type CreditOutcome = 'credited' | 'already-credited' | 'no-subscription';

/**
 * Credits an entity's balance at the provider (referral credit): a negative adjustment on its
 * live subscription. The caller's key is the adjustment's uniqueness token, so it must be unique
 * across callers (the referral ledger's redemption id): a repeated credit is a no-op.
 */
@Injectable()
export class BillingCredits {
  constructor(
    private readonly provider: BillingProvider,
    private readonly subscriptions: SubscriptionRepository,
  ) {}

  /** `amount`: a positive decimal with at most two decimals. */
  async credit(
    entityId: string,
    amount: string,
    memo: string,
    key: string,
  ): Promise<CreditOutcome> {
    const cents = decimalToCents(amount);
    if (cents === undefined || cents <= 0) throw new RangeError(`not a credit amount: ${amount}`);
    const [live] = this.provider.configured ? await this.subscriptions.liveOfEntity(entityId) : [];
    if (!live) return 'no-subscription';
    const result = await this.provider.createAdjustment(
      live.providerId,
      { amountInCents: -cents, memo },
      key,
    );
    return result.duplicate ? 'already-credited' : 'credited';
  }
}
