import type { BillingWire } from '../../src/billing';

/**
 * The fake provider's arithmetic: what a product and its component quantities cost for one
 * period, as the provider's billing manifest (line items, discount, totals). Taxes are zero.
 */

/** A decimal string of the provider (`"1.5"`) in cents; the fake's prices have two decimals at most. */
export const cents = (decimal: string) => Math.round(Number(decimal) * 100);

export interface PricedComponent {
  component: BillingWire.Component;
  quantity: number;
}

/** The charge of `quantity` units by the component's pricing scheme and tiers. */
export function componentCharge(component: BillingWire.Component, quantity: number): number {
  const tiers = [...component.prices].sort((a, b) => a.starting_quantity - b.starting_quantity);
  if (!tiers.length || quantity <= 0) return 0;
  const tierOf = (q: number) =>
    tiers.find((t) => q >= t.starting_quantity && (t.ending_quantity ?? Infinity) >= q) ??
    tiers[tiers.length - 1];
  switch (component.pricing_scheme) {
    case 'volume':
      return quantity * cents(tierOf(quantity).unit_price);
    case 'stairstep':
      return cents(tierOf(quantity).unit_price);
    case 'tiered':
      return tiers.reduce((sum, t) => {
        const upTo = Math.min(quantity, t.ending_quantity ?? Infinity);
        const units = Math.max(0, upTo - t.starting_quantity + 1);
        return sum + units * cents(t.unit_price);
      }, 0);
    default:
      return quantity * cents(tiers[0].unit_price);
  }
}

/** The discount of a coupon on an amount (percent, or a fixed amount spread until used up). */
function discounter(coupons: BillingWire.Coupon[]) {
  let fixedLeft = coupons.reduce((sum, c) => sum + (c.amount_in_cents ?? 0), 0);
  const percent = coupons.reduce((sum, c) => sum + Number(c.percentage ?? 0), 0);
  return (amount: number) => {
    const byPercent = Math.round((amount * percent) / 100);
    const byAmount = Math.min(fixedLeft, amount - byPercent);
    fixedLeft -= byAmount;
    return byPercent + byAmount;
  };
}

export function manifest(
  product: BillingWire.Product,
  priceInCents: number,
  components: PricedComponent[],
  coupons: BillingWire.Coupon[],
  period: { start: string; end: string; type: 'recurring' | 'initial' },
): BillingWire.BillingManifest {
  const discount = discounter(coupons);
  const range = {
    period_range_start: period.start.slice(0, 10),
    period_range_end: period.end.slice(0, 10),
  };
  const baseline: BillingWire.BillingManifestItem = {
    transaction_type: 'charge',
    kind: 'baseline',
    amount_in_cents: priceInCents,
    memo: `${product.name} (${range.period_range_start} - ${range.period_range_end})`,
    discount_amount_in_cents: 0,
    taxable_amount_in_cents: 0,
    product_id: product.id,
    product_handle: product.handle,
    ...range,
  };
  const lines = [
    baseline,
    ...components
      .filter((c) => c.quantity > 0)
      .map(({ component, quantity }): BillingWire.BillingManifestItem => ({
        transaction_type: 'charge',
        kind: 'quantity_based_component',
        amount_in_cents: componentCharge(component, quantity),
        memo: `${component.name}: ${quantity} ${component.unit_name}${quantity === 1 ? '' : 's'}`,
        discount_amount_in_cents: 0,
        taxable_amount_in_cents: 0,
        component_id: component.id,
        component_handle: component.handle,
        ...range,
      })),
  ].map((line) => ({ ...line, discount_amount_in_cents: discount(line.amount_in_cents) }));
  const subtotal = lines.reduce((sum, l) => sum + l.amount_in_cents, 0);
  const totalDiscount = lines.reduce((sum, l) => sum + l.discount_amount_in_cents, 0);
  return {
    line_items: lines,
    subtotal_in_cents: subtotal,
    total_discount_in_cents: totalDiscount,
    total_tax_in_cents: 0,
    total_in_cents: subtotal - totalDiscount,
    existing_balance_in_cents: 0,
    start_date: period.start,
    end_date: period.end,
    period_type: period.type,
  };
}

/** `at` plus `count` months or days, as the provider's periods advance. */
export function addInterval(at: Date, count: number, unit: BillingWire.IntervalUnit): Date {
  const next = new Date(at);
  if (unit === 'month') next.setUTCMonth(next.getUTCMonth() + count);
  else if (unit === 'day') next.setUTCDate(next.getUTCDate() + count);
  return next;
}
