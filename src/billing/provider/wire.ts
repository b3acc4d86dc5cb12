/**
 * The provider's JSON (Maxio Advanced Billing, ex-Chargify) as this service reads it: the fields
 * we use, in the provider's spelling. Amounts are integer cents (`*_in_cents`) except where the
 * provider writes decimal strings (component unit prices, invoice totals, coupon percentages).
 * Dates are ISO 8601 strings with an offset.
 */

export type IntervalUnit = 'month' | 'day' | 'never';

/** The provider's spelling; live = any but `canceled` and `expired`. */
export type SubscriptionState =
  | 'active'
  | 'trialing'
  | 'past_due'
  | 'soft_failure'
  | 'unpaid'
  | 'on_hold'
  | 'canceled'
  | 'expired'
  | 'assessing'
  | 'pending'
  | 'suspended'
  | 'trial_ended'
  | 'awaiting_signup'
  | 'failed_to_create'
  | 'paused';

export interface ProductFamily {
  id: number;
  name: string;
  handle: string;
}

export interface Product {
  id: number;
  name: string;
  handle: string;
  description: string | null;
  price_in_cents: number;
  interval: number;
  interval_unit: IntervalUnit;
  initial_charge_in_cents: number | null;
  trial_price_in_cents: number | null;
  trial_interval: number | null;
  trial_interval_unit: IntervalUnit | null;
  archived_at: string | null;
  default_product_price_point_id: number | null;
  product_family: ProductFamily;
  created_at: string;
  updated_at: string;
}

export interface ProductPricePoint {
  id: number;
  name: string;
  handle: string;
  price_in_cents: number;
  interval: number;
  interval_unit: IntervalUnit;
  trial_price_in_cents: number | null;
  trial_interval: number | null;
  trial_interval_unit: IntervalUnit | null;
  product_id: number;
  archived_at: string | null;
  type: 'catalog' | 'default' | 'custom';
}

export type PricingScheme = 'per_unit' | 'volume' | 'tiered' | 'stairstep';

/** One tier of a component's price; `ending_quantity` null = no upper bound. */
export interface ComponentPrice {
  id: number;
  component_id: number;
  starting_quantity: number;
  ending_quantity: number | null;
  /** Decimal string, e.g. `"1.0"` or `"0.5"`. */
  unit_price: string;
  price_point_id: number;
  formatted_unit_price: string;
}

export interface Component {
  id: number;
  name: string;
  handle: string;
  kind:
    | 'quantity_based_component'
    | 'on_off_component'
    | 'metered_component'
    | 'prepaid_usage_component'
    | 'event_based_component';
  unit_name: string;
  pricing_scheme: PricingScheme | null;
  product_family_id: number;
  default_price_point_id: number | null;
  prices: ComponentPrice[];
  archived: boolean;
  created_at: string;
  updated_at: string;
}

export interface ComponentPricePoint {
  id: number;
  name: string;
  handle: string;
  type: 'catalog' | 'default' | 'custom';
  default: boolean;
  pricing_scheme: PricingScheme;
  component_id: number;
  archived_at: string | null;
  prices: ComponentPrice[];
}

export interface Customer {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  organization: string | null;
  /** Our entity's UUID. */
  reference: string | null;
  created_at: string;
  updated_at: string;
}

/** A card (or bank account) on file; the provider keeps the numbers, we keep brand and last four. */
export interface PaymentProfile {
  id: number;
  customer_id: number;
  first_name: string | null;
  last_name: string | null;
  payment_type: 'credit_card' | 'bank_account' | 'paypal_account' | 'apple_pay';
  /** `XXXX-XXXX-XXXX-1111`; absent for a bank account. */
  masked_card_number?: string;
  card_type?: string;
  expiration_month?: number;
  expiration_year?: number;
  masked_bank_account_number?: string;
  bank_name?: string;
  current_vault: string | null;
  disabled: boolean;
}

export interface Subscription {
  id: number;
  state: SubscriptionState;
  balance_in_cents: number;
  product_price_in_cents: number;
  product_price_point_id: number | null;
  current_period_started_at: string | null;
  current_period_ends_at: string | null;
  next_assessment_at: string | null;
  trial_started_at: string | null;
  trial_ended_at: string | null;
  activated_at: string | null;
  canceled_at: string | null;
  delayed_cancel_at: string | null;
  cancel_at_end_of_period: boolean;
  coupon_codes: string[];
  currency: string;
  created_at: string;
  /** Orders the provider's views of one subscription (webhooks may arrive out of order). */
  updated_at: string;
  customer: Customer;
  product: Product;
  credit_card?: PaymentProfile;
}

export interface BillingManifestItem {
  transaction_type: 'charge' | 'credit' | 'adjustment' | 'payment' | 'refund' | 'info_transaction';
  kind:
    | 'baseline'
    | 'initial'
    | 'trial'
    | 'quantity_based_component'
    | 'prepaid_usage_component'
    | 'on_off_component'
    | 'metered_component'
    | 'event_based_component'
    | 'coupon'
    | 'tax';
  amount_in_cents: number;
  memo: string;
  discount_amount_in_cents: number;
  taxable_amount_in_cents: number;
  product_id?: number;
  product_handle?: string;
  component_id?: number;
  component_handle?: string;
  period_range_start: string;
  period_range_end: string;
}

export interface BillingManifest {
  line_items: BillingManifestItem[];
  subtotal_in_cents: number;
  total_discount_in_cents: number;
  total_tax_in_cents: number;
  total_in_cents: number;
  existing_balance_in_cents: number;
  start_date: string;
  end_date: string;
  period_type: 'recurring' | 'initial';
}

export interface SubscriptionPreview {
  current_billing_manifest: BillingManifest;
  next_billing_manifest: BillingManifest;
}

export type CreditType = 'full' | 'prorated' | 'none';

export interface Allocation {
  allocation_id: number;
  component_id: number;
  component_handle: string;
  subscription_id: number;
  quantity: number;
  previous_quantity: number;
  memo: string | null;
  timestamp: string;
  created_at: string;
  upgrade_charge: CreditType | null;
  downgrade_credit: CreditType | null;
  accrue_charge: boolean;
}

export type InvoiceStatus =
  'draft' | 'open' | 'paid' | 'pending' | 'voided' | 'canceled' | 'processing';

export interface Invoice {
  uid: string;
  number: string;
  subscription_id: number;
  customer_id: number;
  status: InvoiceStatus;
  /** `YYYY-MM-DD`. */
  issue_date: string;
  due_date: string | null;
  paid_date: string | null;
  currency: string;
  /** Decimal strings, e.g. `"49.0"`. */
  subtotal_amount: string;
  discount_amount: string;
  tax_amount: string;
  total_amount: string;
  paid_amount: string;
  due_amount: string;
  memo: string | null;
  public_url: string | null;
  created_at: string;
}

export interface Adjustment {
  id: number;
  success: boolean;
  memo: string;
  amount_in_cents: number;
  ending_balance_in_cents: number;
  type: 'Adjustment';
  transaction_type: 'adjustment';
  subscription_id: number;
  product_id: number;
  created_at: string;
}

export interface Coupon {
  id: number;
  name: string;
  code: string;
  description: string | null;
  /** Decimal string; null for an amount coupon. */
  percentage: string | null;
  /** Null for a percentage coupon. */
  amount_in_cents: number | null;
  recurring: boolean;
  /** Periods a recurring coupon lasts; null = forever. */
  duration_period_count: number | null;
  product_family_id: number;
  start_date: string | null;
  /** After it the code is refused for new signups. */
  end_date: string | null;
  archived_at: string | null;
  discount_type: 'amount' | 'percent';
}
