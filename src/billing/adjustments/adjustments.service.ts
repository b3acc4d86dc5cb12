import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock, DomainError } from '../../common';
import { Env } from '../../config';
import { centsToDecimal, decimalToCents } from '../money';
import { BillingProvider } from '../provider/billing-provider';
import { billingNotConfigured } from '../provider/errors';
import { SubscriptionRepository } from '../store/subscription.repository';
import { AdjustmentDto } from './adjustment.dto';
import { AdjustmentView } from './adjustment.view';

/** Credits and charges on a subscription, by site administrators. */
@Injectable()
export class AdjustmentsService {
  constructor(
    private readonly provider: BillingProvider,
    private readonly subscriptions: SubscriptionRepository,
    private readonly env: Env,
    private readonly clock: Clock,
  ) {}

  async create(id: string, dto: AdjustmentDto): Promise<AdjustmentView> {
    const amountInCents = decimalToCents(dto.amount);
    if (amountInCents === undefined || amountInCents === 0) {
      throw DomainError.badRequest('amount must be a non-zero amount with at most two decimals');
    }
    if (!this.provider.configured) throw billingNotConfigured();
    const subscription = await this.subscriptions.find(id);
    if (!subscription) throw DomainError.notFound('no such subscription');
    // Per request: our retries of the call after a lost answer are deduplicated by the provider.
    const token = `adjustment:${id}:${randomUUID()}`;
    const result = await this.provider.createAdjustment(
      subscription.providerId,
      { amountInCents, memo: dto.memo },
      token,
    );
    const made = result.duplicate ? null : result.value;
    return {
      id: made?.id ?? null,
      subscription: id,
      amount: centsToDecimal(made?.amount_in_cents ?? amountInCents),
      currency: this.env.BILLING_CURRENCY,
      memo: made?.memo ?? dto.memo,
      created: made ? new Date(made.created_at).toISOString() : this.clock.now().toISOString(),
    };
  }
}
