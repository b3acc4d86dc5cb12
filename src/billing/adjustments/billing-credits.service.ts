import { Injectable } from '@nestjs/common';
import { decimalToCents } from '../money';
import { BillingProvider } from '../provider/billing-provider';
import { BillingNotFoundError } from '../provider/errors';
import { SubscriptionRepository } from '../store/subscription.repository';

export type CreditOutcome = 'credited' | 'already-credited';

/**
 * Credits an entity's balance at the provider (referral credit): a negative adjustment on its
 * subscription. The caller's key is the adjustment's uniqueness token, so it must be unique
 * across callers (the referral ledger's redemption id): a repeated credit is a no-op. Nothing
 * here opens a transaction: the caller calls it outside its own.
 */
@Injectable()
export class BillingCredits {
  constructor(
    private readonly provider: BillingProvider,
    private readonly subscriptions: SubscriptionRepository,
  ) {}

  /** Our id of the entity's live subscription, where its credit goes; null without one (or billing). */
  async target(entityId: string): Promise<string | null> {
    if (!this.provider.configured) return null;
    const [live] = await this.subscriptions.liveOfEntity(entityId);
    return live?.id ?? null;
  }

  /**
   * Credits the subscription (our id, live or not since: a retry goes where its first attempt
   * went). `amount`: a positive decimal with at most two decimals. Throws the provider's errors:
   * `BillingProviderError` or `BillingNotFoundError` when it refused (nothing credited),
   * `BillingProviderUnavailable` when it gave no usable answer (maybe credited: retry with the
   * same key).
   */
  async credit(
    subscriptionId: string,
    amount: string,
    memo: string,
    key: string,
  ): Promise<CreditOutcome> {
    const cents = decimalToCents(amount);
    if (cents === undefined || cents <= 0) throw new RangeError(`not a credit amount: ${amount}`);
    const subscription = await this.subscriptions.find(subscriptionId);
    if (!subscription) throw new BillingNotFoundError(`subscription ${subscriptionId}`);
    const result = await this.provider.createAdjustment(
      subscription.providerId,
      { amountInCents: -cents, memo },
      key,
    );
    return result.duplicate ? 'already-credited' : 'credited';
  }
}
