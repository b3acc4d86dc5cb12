import { centsToDecimal } from '../money';
import { planOfProduct } from '../plans';
import type { BillingManifest, Subscription } from '../provider/wire';

/** What we keep of the provider's view of a subscription (from an answer or a webhook). */
export type SubscriptionFacts = Pick<
  Subscription,
  'state' | 'current_period_ends_at' | 'cancel_at_end_of_period' | 'updated_at'
> & { product: { handle: string }; credit_card?: { id: number } };
import { BillingSubscription, isLive } from '../store/subscription.entity';
import { PreviewPeriodView, SubscriptionView } from './subscription.view';

export const toSubscriptionView = (s: BillingSubscription): SubscriptionView => ({
  id: s.id,
  organization: s.organizationId,
  entity: s.entityId,
  productHandle: s.productHandle,
  pricePointHandle: s.pricePointHandle,
  plan: planOfProduct(s.productHandle).plan.handle,
  state: s.state,
  live: isLive(s.state),
  currentPeriodEndsAt: s.currentPeriodEndsAt?.toISOString() ?? null,
  cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  created: s.created.toISOString(),
  updated: s.updated.toISOString(),
});

/**
 * Takes the provider's view of the subscription unless ours is newer (webhooks arrive out of
 * order). Answers whether it was taken.
 */
export function applyProviderView(row: BillingSubscription, provider: SubscriptionFacts): boolean {
  const at = new Date(provider.updated_at);
  if (row.providerUpdatedAt && at < row.providerUpdatedAt) return false;
  row.state = provider.state;
  row.productHandle = provider.product.handle;
  row.currentPeriodEndsAt = provider.current_period_ends_at
    ? new Date(provider.current_period_ends_at)
    : null;
  row.cancelAtPeriodEnd = provider.cancel_at_end_of_period;
  if (provider.credit_card) row.paymentProfileProviderId = provider.credit_card.id;
  row.providerUpdatedAt = at;
  return true;
}

export const toPreviewPeriod = (m: BillingManifest): PreviewPeriodView => ({
  lineItems: m.line_items.map((l) => ({
    kind: l.kind,
    transactionType: l.transaction_type,
    memo: l.memo,
    amount: centsToDecimal(l.amount_in_cents),
    discount: centsToDecimal(l.discount_amount_in_cents),
  })),
  subtotal: centsToDecimal(m.subtotal_in_cents),
  discount: centsToDecimal(m.total_discount_in_cents),
  tax: centsToDecimal(m.total_tax_in_cents),
  total: centsToDecimal(m.total_in_cents),
  periodStart: new Date(m.start_date).toISOString(),
  periodEnd: new Date(m.end_date).toISOString(),
});
