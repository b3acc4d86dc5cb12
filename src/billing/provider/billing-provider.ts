import { Inject, Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import { Env } from '../../config';
import { billingNotConfigured, BillingProviderUnavailable } from './errors';
import {
  CallResult,
  DEFAULT_HTTP_OPTIONS,
  ProviderCall,
  ProviderHttp,
  ProviderHttpOptions,
} from './provider-http';
import type {
  Adjustment,
  Allocation,
  Component,
  ComponentPricePoint,
  Coupon,
  CreditType,
  Customer,
  Invoice,
  PaymentProfile,
  Product,
  ProductPricePoint,
  Subscription,
  SubscriptionPreview,
} from './wire';

/** Overrides of the HTTP defaults (10 s timeout, 2 retries of reads ...), for tests. */
export const BILLING_PROVIDER_OPTIONS = Symbol('BILLING_PROVIDER_OPTIONS');

/** The components our member pricing reads and our count pushes set, by handle. */
export interface SeatCounts {
  members: number;
  shareholders: number;
}

/**
 * A write the provider deduplicates by its uniqueness token: `duplicate` means the token was
 * used before, so the write is already done (by an earlier attempt whose answer was lost):
 * re-read what it made.
 */
export type UniqueWrite<T> = { duplicate: false; value: T } | { duplicate: true };

export interface NewCustomer {
  /** Our entity's UUID. */
  reference: string;
  firstName: string;
  lastName: string;
  email: string;
  organization?: string;
}

export interface SubscriptionRequest {
  productHandle: string;
  pricePointHandle?: string;
  customerId: number;
  paymentProfileId?: number;
  couponCodes?: string[];
  /** Allocated at signup, so the first invoice already counts them. */
  seats: SeatCounts;
}

export interface AllocationRequest {
  seats: SeatCounts;
  memo?: string;
  /** How an increase is charged and a decrease credited mid-period. */
  upgradeCharge: CreditType;
  downgradeCredit: CreditType;
  /** Add an increase's charge to the next renewal rather than charging it now. */
  accrueCharge: boolean;
  uniquenessToken?: string;
}

export interface PaymentProfileChanges {
  firstName?: string;
  lastName?: string;
  expirationMonth?: number;
  expirationYear?: number;
}

/** The largest page the provider serves; our catalogue and a customer's records fit in one. */
const PER_PAGE = 200;

/**
 * The billing provider (Maxio Advanced Billing) over its REST API: one typed method per call
 * the billing module makes, answering the provider's records (see wire.ts). Unconfigured, every
 * method throws `billingNotConfigured` without sending anything. Errors: 422 → BillingProviderError
 * (400), 404 → BillingNotFoundError (or null where a lookup may find nothing), anything else →
 * BillingProviderUnavailable (500) after the retries of reads.
 */
@Injectable()
export class BillingProvider implements OnModuleDestroy {
  private readonly http?: ProviderHttp;

  constructor(
    private readonly env: Env,
    @Optional() @Inject(BILLING_PROVIDER_OPTIONS) options: Partial<ProviderHttpOptions> = {},
  ) {
    if (env.billingConfigured) {
      this.http = new ProviderHttp(env.BILLING_PROVIDER_URL!, env.BILLING_API_KEY!, {
        ...DEFAULT_HTTP_OPTIONS,
        ...options,
      });
    }
  }

  get configured(): boolean {
    return this.http !== undefined;
  }

  async onModuleDestroy(): Promise<void> {
    await this.http?.close();
  }

  // Catalogue

  async listProducts(): Promise<Product[]> {
    const list = await this.read<{ product: Product }[]>({
      path: '/products.json',
      query: { per_page: PER_PAGE },
      record: 'products',
    });
    return list.map((p) => p.product);
  }

  listProductPricePoints(productId: number): Promise<ProductPricePoint[]> {
    return this.pricePoints(`/products/${segment(productId)}`, `product ${productId}`);
  }

  /** The components of BILLING_PRODUCT_FAMILY (an id or `handle:<handle>`). */
  async listFamilyComponents(): Promise<Component[]> {
    const family = this.env.BILLING_PRODUCT_FAMILY;
    if (!family) throw billingNotConfigured('BILLING_PRODUCT_FAMILY is unset');
    const list = await this.read<{ component: Component }[]>({
      path: `/product_families/${segment(family)}/components.json`,
      query: { per_page: PER_PAGE },
      record: `product family ${family}`,
    });
    return list.map((c) => c.component);
  }

  listComponentPricePoints(componentId: number): Promise<ComponentPricePoint[]> {
    return this.pricePoints(`/components/${segment(componentId)}`, `component ${componentId}`);
  }

  /** Null when the provider has no coupon of that code (an unknown or archived code). */
  async validateCoupon(code: string): Promise<Coupon | null> {
    const found = await this.readOrNull<{ coupon: Coupon }>({
      path: '/coupons/validate.json',
      query: { code },
      record: `coupon ${code}`,
    });
    return found?.coupon ?? null;
  }

  // Customers

  /** Null when no customer has that reference. */
  async findCustomer(reference: string): Promise<Customer | null> {
    const found = await this.readOrNull<{ customer: Customer }>({
      path: '/customers/lookup.json',
      query: { reference },
      record: `customer ${reference}`,
    });
    return found?.customer ?? null;
  }

  /** Sent once; a reference already taken is a 422 (the caller looks the customer up). */
  async createCustomer(customer: NewCustomer): Promise<Customer> {
    const body = {
      customer: {
        reference: customer.reference,
        first_name: customer.firstName,
        last_name: customer.lastName,
        email: customer.email,
        organization: customer.organization,
      },
    };
    const { customer: created } = await this.write<{ customer: Customer }>({
      method: 'POST',
      path: '/customers.json',
      body,
      record: 'customer',
    });
    return created;
  }

  // Subscriptions

  async getSubscription(subscriptionId: number): Promise<Subscription> {
    const { subscription } = await this.read<{ subscription: Subscription }>({
      path: `/subscriptions/${segment(subscriptionId)}.json`,
      record: `subscription ${subscriptionId}`,
    });
    return subscription;
  }

  /** A customer's subscriptions, newest first: where a duplicate signup is re-read. */
  async listCustomerSubscriptions(customerId: number): Promise<Subscription[]> {
    const list = await this.read<{ subscription: Subscription }[]>({
      path: `/customers/${segment(customerId)}/subscriptions.json`,
      record: `customer ${customerId}`,
    });
    return list.map((s) => s.subscription).sort((a, b) => b.id - a.id);
  }

  async createSubscription(
    request: SubscriptionRequest,
    uniquenessToken: string,
  ): Promise<UniqueWrite<Subscription>> {
    const result = await this.send({
      method: 'POST',
      path: '/subscriptions.json',
      body: { subscription: { ...subscriptionBody(request), uniqueness_token: uniquenessToken } },
      record: 'subscription',
      repeatable: true,
      uniquenessToken,
    });
    return unique(result, (body: { subscription: Subscription }) => body.subscription);
  }

  /** What the signup would charge now and at the next renewal; creates nothing, so retried. */
  async previewSubscription(request: SubscriptionRequest): Promise<SubscriptionPreview> {
    const body = { subscription: subscriptionBody(request) };
    const result = await this.send({
      method: 'POST',
      path: '/subscriptions/preview.json',
      body,
      record: 'subscription preview',
      repeatable: true,
    });
    return bodyOf<{ subscription_preview: SubscriptionPreview }>(result).subscription_preview;
  }

  /** Cancels now (the provider's DELETE); answers the canceled subscription. */
  async cancelNow(subscriptionId: number): Promise<Subscription> {
    const { subscription } = await this.write<{ subscription: Subscription }>({
      method: 'DELETE',
      path: `/subscriptions/${segment(subscriptionId)}.json`,
      record: `subscription ${subscriptionId}`,
    });
    return subscription;
  }

  /** Cancels at the end of the current period; the provider answers only a message. */
  async cancelAtPeriodEnd(subscriptionId: number): Promise<void> {
    await this.send({
      method: 'POST',
      path: `/subscriptions/${segment(subscriptionId)}/delayed_cancel.json`,
      record: `subscription ${subscriptionId}`,
      repeatable: false,
    });
  }

  /** Sets both seat components in one call (absolute quantities). */
  async allocate(
    subscriptionId: number,
    request: AllocationRequest,
  ): Promise<UniqueWrite<Allocation[]>> {
    const memo = request.memo;
    const result = await this.send({
      method: 'POST',
      path: `/subscriptions/${segment(subscriptionId)}/allocations.json`,
      body: {
        allocations: [
          { component_id: 'handle:members', quantity: request.seats.members, memo },
          { component_id: 'handle:shareholders', quantity: request.seats.shareholders, memo },
        ],
        upgrade_charge: request.upgradeCharge,
        downgrade_credit: request.downgradeCredit,
        accrue_charge: request.accrueCharge,
        uniqueness_token: request.uniquenessToken,
      },
      record: `subscription ${subscriptionId}`,
      repeatable: request.uniquenessToken !== undefined,
      uniquenessToken: request.uniquenessToken,
    });
    return unique(result, (body: { allocation: Allocation }[]) => body.map((a) => a.allocation));
  }

  /** A charge (positive) or a credit (negative) on the subscription's balance. */
  async createAdjustment(
    subscriptionId: number,
    adjustment: { amountInCents: number; memo: string },
    uniquenessToken: string,
  ): Promise<UniqueWrite<Adjustment>> {
    const result = await this.send({
      method: 'POST',
      path: `/subscriptions/${segment(subscriptionId)}/adjustments.json`,
      body: {
        adjustment: {
          amount_in_cents: adjustment.amountInCents,
          memo: adjustment.memo,
          uniqueness_token: uniquenessToken,
        },
      },
      record: `subscription ${subscriptionId}`,
      repeatable: true,
      uniquenessToken,
    });
    return unique(result, (body: { adjustment: Adjustment }) => body.adjustment);
  }

  /** One page of the subscription's invoices, newest first. */
  async listInvoices(subscriptionId: number, page = 1, perPage = 100): Promise<Invoice[]> {
    const { invoices } = await this.read<{ invoices: Invoice[] }>({
      path: '/invoices.json',
      query: { subscription_id: subscriptionId, direction: 'desc', page, per_page: perPage },
      record: 'invoices',
    });
    return invoices;
  }

  // Payment profiles

  /** Stores the card behind a token of the provider's JS; a token it refuses is a 422. */
  async createPaymentProfile(customerId: number, chargifyToken: string): Promise<PaymentProfile> {
    const { payment_profile } = await this.write<{ payment_profile: PaymentProfile }>({
      method: 'POST',
      path: '/payment_profiles.json',
      body: { payment_profile: { customer_id: customerId, chargify_token: chargifyToken } },
      record: 'payment profile',
    });
    return payment_profile;
  }

  async listPaymentProfiles(customerId: number): Promise<PaymentProfile[]> {
    const list = await this.read<{ payment_profile: PaymentProfile }[]>({
      path: '/payment_profiles.json',
      query: { customer_id: customerId, per_page: PER_PAGE },
      record: 'payment profiles',
    });
    return list.map((p) => p.payment_profile);
  }

  async updatePaymentProfile(
    profileId: number,
    changes: PaymentProfileChanges,
  ): Promise<PaymentProfile> {
    const { payment_profile } = await this.write<{ payment_profile: PaymentProfile }>({
      method: 'PUT',
      path: `/payment_profiles/${segment(profileId)}.json`,
      body: {
        payment_profile: {
          first_name: changes.firstName,
          last_name: changes.lastName,
          expiration_month: changes.expirationMonth,
          expiration_year: changes.expirationYear,
        },
      },
      record: `payment profile ${profileId}`,
    });
    return payment_profile;
  }

  /** The provider refuses (422) a profile a subscription still uses. */
  async deletePaymentProfile(profileId: number): Promise<void> {
    await this.send({
      method: 'DELETE',
      path: `/payment_profiles/${segment(profileId)}.json`,
      record: `payment profile ${profileId}`,
      repeatable: false,
    });
  }

  /** Makes the profile the one the subscription is charged to. */
  async changeSubscriptionPaymentProfile(
    subscriptionId: number,
    profileId: number,
  ): Promise<PaymentProfile> {
    const { payment_profile } = await this.write<{ payment_profile: PaymentProfile }>({
      method: 'POST',
      path: `/subscriptions/${segment(subscriptionId)}/payment_profiles/${segment(profileId)}/change_payment_profile.json`,
      record: `subscription ${subscriptionId} or payment profile ${profileId}`,
    });
    return payment_profile;
  }

  // Transport

  private async pricePoints<T>(owner: string, record: string): Promise<T[]> {
    const { price_points } = await this.read<{ price_points: T[] }>({
      path: `${owner}/price_points.json`,
      query: { per_page: PER_PAGE },
      record,
    });
    return price_points;
  }

  private async read<T>(call: Omit<ProviderCall, 'method' | 'repeatable'>): Promise<T> {
    return bodyOf<T>(await this.send({ ...call, method: 'GET', repeatable: true }));
  }

  private async readOrNull<T>(
    call: Omit<ProviderCall, 'method' | 'repeatable'>,
  ): Promise<T | null> {
    const result = await this.send({
      ...call,
      method: 'GET',
      repeatable: true,
      missingAsNull: true,
    });
    return result.kind === 'missing' ? null : bodyOf<T>(result);
  }

  private async write<T>(call: Omit<ProviderCall, 'repeatable'>): Promise<T> {
    return bodyOf<T>(await this.send({ ...call, repeatable: false }));
  }

  private send(call: ProviderCall): Promise<CallResult> {
    if (!this.http) throw billingNotConfigured();
    return this.http.call(call);
  }
}

function subscriptionBody(request: SubscriptionRequest) {
  return {
    product_handle: request.productHandle,
    product_price_point_handle: request.pricePointHandle,
    customer_id: request.customerId,
    payment_profile_id: request.paymentProfileId,
    coupon_codes: request.couponCodes,
    components: [
      { component_id: 'handle:members', allocated_quantity: request.seats.members },
      { component_id: 'handle:shareholders', allocated_quantity: request.seats.shareholders },
    ],
  };
}

function unique<B, T>(result: CallResult, pick: (body: B) => T): UniqueWrite<T> {
  if (result.kind === 'duplicate') return { duplicate: true };
  return { duplicate: false, value: pick(bodyOf<B>(result)) };
}

/** The body of a successful answer; an empty or unreadable one where a record was due is a 500. */
function bodyOf<T>(result: CallResult): T {
  if (result.kind !== 'body' || result.body === undefined || typeof result.body === 'string') {
    throw new BillingProviderUnavailable('the billing provider answered without the expected JSON');
  }
  return result.body as T;
}

/** A path segment: ids and `handle:<handle>` (the provider reads the colon literally). */
const segment = (value: string | number) => encodeURIComponent(String(value)).replace(/%3A/g, ':');
