import {
  BillingNotFoundError,
  BillingProvider,
  BillingProviderError,
  BillingProviderUnavailable,
  SubscriptionRequest,
} from '../../../src/billing';
import { DomainError, renderDomainError } from '../../../src/common';
import { validateEnv } from '../../../src/config';
import { FakeBilling } from '../../fakes/billing';

/**
 * BillingProvider against FakeBilling through real HTTP: the request each call sends (as the
 * fake records it), the answer it parses, and how failures map. Retries do not wait: `sleep`
 * only records the delays asked for.
 */
describe('BillingProvider', () => {
  let fake: FakeBilling;
  let provider: BillingProvider;
  let waits: number[];
  const providers: BillingProvider[] = [];

  const make = (env: Record<string, string>) => {
    const made = new BillingProvider(validateEnv(env), {
      timeoutMs: 200,
      sleep: async (ms) => void waits.push(ms),
    });
    providers.push(made);
    return made;
  };

  beforeEach(async () => {
    fake = await FakeBilling.start();
    fake.seedCatalogue();
    waits = [];
    provider = make(fake.env());
  });

  afterEach(async () => {
    await Promise.all(providers.splice(0).map((p) => p.onModuleDestroy()));
    await fake.close();
  });

  const lastRequest = () => fake.requests[fake.requests.length - 1];

  /** A customer with a card and an active `starter` subscription. */
  async function subscribed() {
    const customer = await provider.createCustomer({
      reference: 'entity-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.test',
    });
    const profile = await provider.createPaymentProfile(customer.id, fake.cardToken());
    const created = await provider.createSubscription(
      { ...signup(customer.id), paymentProfileId: profile.id },
      'signup-1',
    );
    if (created.duplicate) throw new Error('unexpected duplicate');
    return { customer, profile, subscription: created.value };
  }

  const signup = (customerId: number): SubscriptionRequest => ({
    productHandle: 'starter',
    customerId,
    seats: { members: 12, shareholders: 4 },
  });

  describe('the catalogue', () => {
    it('lists the products and their price points', async () => {
      const products = await provider.listProducts();
      expect(lastRequest()).toMatchObject({
        method: 'GET',
        path: '/products.json',
        query: { per_page: '200' },
        authorized: true,
      });
      expect(products.map((p) => [p.handle, p.price_in_cents, p.interval_unit])).toEqual([
        ['starter', 4900, 'month'],
        ['growth', 19900, 'month'],
      ]);
      const growth = products.find((p) => p.handle === 'growth')!;
      const points = await provider.listProductPricePoints(growth.id);
      expect(lastRequest().path).toBe(`/products/${growth.id}/price_points.json`);
      expect(points.map((p) => [p.handle, p.price_in_cents, p.interval])).toEqual([
        ['growth-default', 19900, 1],
        ['growth-annual', 199000, 12],
      ]);
    });

    it('lists the components of BILLING_PRODUCT_FAMILY and their price points', async () => {
      const components = await provider.listFamilyComponents();
      expect(lastRequest().path).toBe('/product_families/handle:ledgerline/components.json');
      expect(components.map((c) => [c.handle, c.pricing_scheme])).toEqual([
        ['members', 'tiered'],
        ['shareholders', 'per_unit'],
      ]);
      const members = components[0];
      expect(
        members.prices.map((p) => [p.starting_quantity, p.ending_quantity, p.unit_price]),
      ).toEqual([
        [1, 10, '0.0'],
        [11, null, '2.0'],
      ]);
      const points = await provider.listComponentPricePoints(members.id);
      expect(lastRequest().path).toBe(`/components/${members.id}/price_points.json`);
      expect(points).toMatchObject([
        { default: true, pricing_scheme: 'tiered', component_id: members.id },
      ]);

      const byId = make({ ...fake.env(), BILLING_PRODUCT_FAMILY: String(fake.family.id) });
      await expect(byId.listFamilyComponents()).resolves.toHaveLength(2);
      expect(lastRequest().path).toBe(`/product_families/${fake.family.id}/components.json`);
    });

    it('validates a coupon code: the coupon, or null for an unknown or archived code', async () => {
      fake.seedCoupon({
        code: 'WELCOME20',
        percentage: '20.0',
        recurring: true,
        durationPeriodCount: 3,
      });
      fake.seedCoupon({ code: 'GONE', amountInCents: 500, archived: true });
      const coupon = await provider.validateCoupon('WELCOME20');
      expect(lastRequest()).toMatchObject({
        path: '/coupons/validate.json',
        query: { code: 'WELCOME20' },
      });
      expect(coupon).toMatchObject({
        code: 'WELCOME20',
        percentage: '20.0',
        amount_in_cents: null,
        recurring: true,
        duration_period_count: 3,
        discount_type: 'percent',
      });
      await expect(provider.validateCoupon('NOPE')).resolves.toBeNull();
      await expect(provider.validateCoupon('GONE')).resolves.toBeNull();
    });
  });

  describe('customers', () => {
    it('looks a customer up by reference (null when none) and creates one', async () => {
      await expect(provider.findCustomer('entity-1')).resolves.toBeNull();
      expect(lastRequest()).toMatchObject({
        path: '/customers/lookup.json',
        query: { reference: 'entity-1' },
      });
      const created = await provider.createCustomer({
        reference: 'entity-1',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.test',
        organization: 'Acme',
      });
      expect(lastRequest()).toMatchObject({
        method: 'POST',
        path: '/customers.json',
        body: {
          customer: {
            reference: 'entity-1',
            first_name: 'Ada',
            last_name: 'Lovelace',
            email: 'ada@example.test',
            organization: 'Acme',
          },
        },
      });
      expect(created).toMatchObject({ reference: 'entity-1', email: 'ada@example.test' });
      await expect(provider.findCustomer('entity-1')).resolves.toEqual(created);
    });

    it("maps a 422 to a BillingProviderError carrying the provider's messages, answered 400", async () => {
      const customer = { reference: 'entity-1', firstName: 'A', lastName: 'B', email: 'a@b.test' };
      await provider.createCustomer(customer);
      const error = await provider.createCustomer(customer).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BillingProviderError);
      expect(error).toMatchObject({
        errors: ['Reference: must be unique - that value has been taken.'],
        providerStatus: 422,
      });
      expect(renderDomainError(error as DomainError)).toEqual({
        status: 400,
        body: {
          error: 'Bad Request',
          message: 'Reference: must be unique - that value has been taken.',
        },
        headers: undefined,
      });

      fake.failNext(422, {
        path: '/customers.json',
        body: { errors: { email: ['is invalid', 'is taken'] } },
      });
      await expect(
        provider.createCustomer({ ...customer, reference: 'entity-2' }),
      ).rejects.toMatchObject({
        message: 'email: is invalid; email: is taken',
      });
    });
  });

  describe('subscriptions', () => {
    it('creates one with its seat components and a uniqueness token', async () => {
      const { customer, profile, subscription } = await subscribed();
      expect(lastRequest()).toMatchObject({
        method: 'POST',
        path: '/subscriptions.json',
        body: {
          subscription: {
            product_handle: 'starter',
            customer_id: customer.id,
            payment_profile_id: profile.id,
            components: [
              { component_id: 'handle:members', allocated_quantity: 12 },
              { component_id: 'handle:shareholders', allocated_quantity: 4 },
            ],
            uniqueness_token: 'signup-1',
          },
        },
      });
      expect(subscription).toMatchObject({
        state: 'active',
        cancel_at_end_of_period: false,
        customer: { id: customer.id },
        product: { handle: 'starter' },
        credit_card: { id: profile.id },
      });
      expect(subscription.updated_at).toEqual(expect.any(String));
      await expect(provider.getSubscription(subscription.id)).resolves.toEqual(subscription);
      await expect(provider.listCustomerSubscriptions(customer.id)).resolves.toEqual([
        subscription,
      ]);
    });

    it('reports a used uniqueness token as a duplicate, distinctly, and the provider does it once', async () => {
      const { customer } = await subscribed();
      await expect(provider.createSubscription(signup(customer.id), 'signup-1')).resolves.toEqual({
        duplicate: true,
      });
      expect(fake.subscriptions.size).toBe(1);
      // A 409 about the token says the same.
      fake.failNext(409, { path: '/subscriptions.json' });
      await expect(provider.createSubscription(signup(customer.id), 'signup-2')).resolves.toEqual({
        duplicate: true,
      });
    });

    it('repeats a token-carrying write whose answer was lost: the repeat finds it done', async () => {
      const customer = fake.seedCustomer({ reference: 'entity-1' });
      fake.failNext(502, { path: '/subscriptions.json', handled: true });
      await expect(provider.createSubscription(signup(customer.id), 'signup-1')).resolves.toEqual({
        duplicate: true,
      });
      expect(fake.requestsTo('POST', '/subscriptions.json')).toHaveLength(2);
      expect(fake.subscriptions.size).toBe(1);
    });

    it("refuses an unknown product or coupon with the provider's messages", async () => {
      const customer = fake.seedCustomer({ reference: 'entity-1' });
      const request = { ...signup(customer.id), productHandle: 'platinum', couponCodes: ['NOPE'] };
      await expect(provider.createSubscription(request, 'signup-1')).rejects.toMatchObject({
        status: 400,
        errors: [
          "Product: could not be found with handle 'platinum'.",
          "Coupon code: 'NOPE' is invalid.",
        ],
      });
      expect(fake.subscriptions.size).toBe(0);
    });

    it('previews a signup: the charges now and at the next renewal', async () => {
      const customer = fake.seedCustomer({ reference: 'entity-1' });
      fake.seedCoupon({ code: 'HALF', percentage: '50.0' });
      const preview = await provider.previewSubscription({
        ...signup(customer.id),
        productHandle: 'growth',
        pricePointHandle: 'growth-annual',
        couponCodes: ['HALF'],
      });
      expect(lastRequest()).toMatchObject({
        method: 'POST',
        path: '/subscriptions/preview.json',
        body: {
          subscription: {
            product_handle: 'growth',
            product_price_point_handle: 'growth-annual',
            coupon_codes: ['HALF'],
            components: [
              { component_id: 'handle:members', allocated_quantity: 12 },
              { component_id: 'handle:shareholders', allocated_quantity: 4 },
            ],
          },
        },
      });
      // 1990.00 + 2 members above 10 at 2.00 + 4 shareholders at 0.50, half off now only.
      const current = preview.current_billing_manifest;
      expect(current.line_items.map((l) => [l.kind, l.amount_in_cents])).toEqual([
        ['baseline', 199000],
        ['quantity_based_component', 400],
        ['quantity_based_component', 200],
      ]);
      expect(current).toMatchObject({
        subtotal_in_cents: 199600,
        total_discount_in_cents: 99800,
        total_in_cents: 99800,
      });
      expect(preview.next_billing_manifest).toMatchObject({
        total_discount_in_cents: 0,
        total_in_cents: 199600,
      });
      expect(fake.subscriptions.size).toBe(0);
    });

    it('cancels at the end of the period or now', async () => {
      const { subscription } = await subscribed();
      await provider.cancelAtPeriodEnd(subscription.id);
      expect(lastRequest()).toMatchObject({
        method: 'POST',
        path: `/subscriptions/${subscription.id}/delayed_cancel.json`,
      });
      await expect(provider.getSubscription(subscription.id)).resolves.toMatchObject({
        state: 'active',
        cancel_at_end_of_period: true,
        delayed_cancel_at: subscription.current_period_ends_at,
      });
      const canceled = await provider.cancelNow(subscription.id);
      expect(lastRequest()).toMatchObject({
        method: 'DELETE',
        path: `/subscriptions/${subscription.id}.json`,
      });
      expect(canceled).toMatchObject({ id: subscription.id, state: 'canceled' });
      expect(Date.parse(canceled.updated_at)).toBeGreaterThan(Date.parse(subscription.updated_at));
    });

    it('allocates both seat components in one call', async () => {
      const { subscription } = await subscribed();
      const pushed = await provider.allocate(subscription.id, {
        seats: { members: 15, shareholders: 3 },
        memo: 'counts',
        upgradeCharge: 'prorated',
        downgradeCredit: 'none',
        accrueCharge: true,
        uniquenessToken: 'counts-1',
      });
      expect(lastRequest()).toMatchObject({
        method: 'POST',
        path: `/subscriptions/${subscription.id}/allocations.json`,
        body: {
          allocations: [
            { component_id: 'handle:members', quantity: 15, memo: 'counts' },
            { component_id: 'handle:shareholders', quantity: 3, memo: 'counts' },
          ],
          upgrade_charge: 'prorated',
          downgrade_credit: 'none',
          accrue_charge: true,
          uniqueness_token: 'counts-1',
        },
      });
      expect(pushed.duplicate).toBe(false);
      expect(
        !pushed.duplicate &&
          pushed.value.map((a) => [a.component_handle, a.previous_quantity, a.quantity]),
      ).toEqual([
        ['members', 12, 15],
        ['shareholders', 4, 3],
      ]);
    });

    it('lists the invoices of a subscription, newest first', async () => {
      const { subscription } = await subscribed();
      fake.seedInvoice(subscription.id, { totalInCents: 4900, status: 'open' });
      const invoices = await provider.listInvoices(subscription.id);
      expect(lastRequest()).toMatchObject({
        path: '/invoices.json',
        query: {
          subscription_id: String(subscription.id),
          direction: 'desc',
          page: '1',
          per_page: '100',
        },
      });
      expect(invoices.map((i) => [i.status, i.total_amount])).toEqual([
        ['open', '49.0'],
        ['paid', '55.0'],
      ]);
    });

    it('makes an adjustment once per uniqueness token', async () => {
      const { subscription } = await subscribed();
      const made = await provider.createAdjustment(
        subscription.id,
        { amountInCents: -1500, memo: 'referral credit' },
        'adjust-1',
      );
      expect(lastRequest()).toMatchObject({
        method: 'POST',
        path: `/subscriptions/${subscription.id}/adjustments.json`,
        body: {
          adjustment: {
            amount_in_cents: -1500,
            memo: 'referral credit',
            uniqueness_token: 'adjust-1',
          },
        },
      });
      expect(made).toMatchObject({
        duplicate: false,
        value: { amount_in_cents: -1500, memo: 'referral credit', ending_balance_in_cents: -1500 },
      });
      await expect(
        provider.createAdjustment(
          subscription.id,
          { amountInCents: -1500, memo: 'referral credit' },
          'adjust-1',
        ),
      ).resolves.toEqual({ duplicate: true });
      expect(fake.adjustments).toHaveLength(1);
    });

    it('maps a 404 to BillingNotFoundError (answered 404), without retrying', async () => {
      const error = await provider.getSubscription(999_999).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BillingNotFoundError);
      expect(error).toMatchObject({
        status: 404,
        message: 'subscription 999999 not found at the billing provider',
      });
      expect(fake.requests).toHaveLength(1);
      await expect(
        provider.createAdjustment(999_999, { amountInCents: 100, memo: 'x' }, 'adjust-1'),
      ).rejects.toBeInstanceOf(BillingNotFoundError);
    });
  });

  describe('payment profiles', () => {
    it('creates one from a token, lists, updates, makes it the default and deletes', async () => {
      const { customer, subscription } = await subscribed();
      const token = fake.cardToken({
        cardType: 'master',
        last4: '4444',
        expirationMonth: 3,
        expirationYear: 2031,
      });
      const second = await provider.createPaymentProfile(customer.id, token);
      expect(lastRequest()).toMatchObject({
        method: 'POST',
        path: '/payment_profiles.json',
        body: { payment_profile: { customer_id: customer.id, chargify_token: token } },
      });
      expect(second).toMatchObject({
        customer_id: customer.id,
        payment_type: 'credit_card',
        card_type: 'master',
        masked_card_number: 'XXXX-XXXX-XXXX-4444',
        expiration_month: 3,
        expiration_year: 2031,
      });

      const listed = await provider.listPaymentProfiles(customer.id);
      expect(lastRequest()).toMatchObject({
        path: '/payment_profiles.json',
        query: { customer_id: String(customer.id) },
      });
      expect(listed.map((p) => p.id)).toEqual([subscription.credit_card!.id, second.id]);

      const updated = await provider.updatePaymentProfile(second.id, {
        expirationMonth: 4,
        lastName: 'Byron',
      });
      expect(lastRequest()).toMatchObject({
        method: 'PUT',
        path: `/payment_profiles/${second.id}.json`,
        body: { payment_profile: { expiration_month: 4, last_name: 'Byron' } },
      });
      expect(updated).toMatchObject({ expiration_month: 4, last_name: 'Byron', first_name: 'Ada' });

      const made = await provider.changeSubscriptionPaymentProfile(subscription.id, second.id);
      expect(lastRequest()).toMatchObject({
        method: 'POST',
        path: `/subscriptions/${subscription.id}/payment_profiles/${second.id}/change_payment_profile.json`,
      });
      expect(made.id).toBe(second.id);
      await expect(provider.getSubscription(subscription.id)).resolves.toMatchObject({
        credit_card: { id: second.id },
      });

      await expect(provider.deletePaymentProfile(second.id)).rejects.toBeInstanceOf(
        BillingProviderError,
      );
      await provider.deletePaymentProfile(subscription.credit_card!.id);
      expect(lastRequest()).toMatchObject({
        method: 'DELETE',
        path: `/payment_profiles/${subscription.credit_card!.id}.json`,
      });
      await expect(provider.listPaymentProfiles(customer.id)).resolves.toHaveLength(1);
    });

    it('refuses a token the provider does not know (400)', async () => {
      const customer = fake.seedCustomer({ reference: 'entity-1' });
      await expect(provider.createPaymentProfile(customer.id, 'tok_forged')).rejects.toMatchObject({
        status: 400,
        message: 'Chargify token: not found or already used.',
      });
    });
  });

  describe('failures', () => {
    it('sends Basic auth with the API key; a refused key is a 500, not retried', async () => {
      await provider.listProducts();
      expect(fake.requests.every((r) => r.authorized)).toBe(true);
      const wrong = make({ ...fake.env(), BILLING_API_KEY: 'not-the-key' });
      const error = await wrong.listProducts().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BillingProviderUnavailable);
      expect(error).toMatchObject({ providerStatus: 401 });
      expect(fake.requests.filter((r) => !r.authorized)).toHaveLength(1);
    });

    it('retries a read after 5xx answers, with a doubling backoff', async () => {
      fake.failNext(500, { times: 2 });
      await expect(provider.listProducts()).resolves.toHaveLength(2);
      expect(fake.requestsTo('GET', '/products.json')).toHaveLength(3);
      expect(waits).toEqual([250, 500]);
    });

    it('retries a read after a 429 as its Retry-After asks, but not when that is past the cap', async () => {
      fake.failNext(429, { retryAfter: '1' });
      await expect(provider.listProducts()).resolves.toHaveLength(2);
      expect(waits).toEqual([1000]);

      fake.failNext(429, { retryAfter: '60' });
      await expect(provider.listProducts()).rejects.toMatchObject({
        name: 'BillingProviderUnavailable',
        providerStatus: 429,
      });
      expect(fake.requestsTo('GET', '/products.json')).toHaveLength(3);
      expect(waits).toEqual([1000]);
    });

    it('gives up on a read after the bounded attempts: an error answered 500', async () => {
      fake.failNext(503, { times: 5 });
      const error = await provider.listProducts().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BillingProviderUnavailable);
      expect(error).not.toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        providerStatus: 503,
        message: 'GET /products.json: the billing provider answered 503 (3 attempts)',
      });
      expect(fake.requests).toHaveLength(3);
    });

    it('never repeats a write without a uniqueness token', async () => {
      fake.failNext(500, { path: '/customers.json' });
      await expect(
        provider.createCustomer({
          reference: 'e',
          firstName: 'A',
          lastName: 'B',
          email: 'a@b.test',
        }),
      ).rejects.toMatchObject({ name: 'BillingProviderUnavailable', providerStatus: 500 });
      fake.failNext(429, { path: /^\/payment_profiles\/\d+\.json$/, retryAfter: '1' });
      await expect(provider.deletePaymentProfile(1)).rejects.toMatchObject({ providerStatus: 429 });
      expect(fake.requests).toHaveLength(2);
      expect(waits).toEqual([]);
    });

    it('stops waiting at the timeout, retrying a read', async () => {
      fake.slowNext(1000, { times: 3, path: '/products.json' });
      await expect(provider.listProducts()).rejects.toMatchObject({
        name: 'BillingProviderUnavailable',
        message: 'GET /products.json: no answer in 200 ms (3 attempts)',
      });
      expect(fake.requests).toHaveLength(3);
    });

    it('repeats a token-carrying write that timed out', async () => {
      const { subscription } = await subscribed();
      fake.slowNext(1000, { path: /adjustments/ });
      const made = await provider.createAdjustment(
        subscription.id,
        { amountInCents: 2500, memo: 'setup' },
        'adjust-1',
      );
      expect(made).toMatchObject({ duplicate: false, value: { amount_in_cents: 2500 } });
      expect(fake.requestsTo('POST', /adjustments/)).toHaveLength(2);
    });
  });

  describe('unconfigured', () => {
    it('throws billingNotConfigured from every call, sending nothing', async () => {
      const off = make({ BILLING_PROVIDER_URL: '', BILLING_API_KEY: '' });
      expect(off.configured).toBe(false);
      const request = signup(1);
      const calls: (() => Promise<unknown>)[] = [
        () => off.listProducts(),
        () => off.listProductPricePoints(1),
        () => off.listFamilyComponents(),
        () => off.listComponentPricePoints(1),
        () => off.validateCoupon('X'),
        () => off.findCustomer('e'),
        () =>
          off.createCustomer({ reference: 'e', firstName: 'A', lastName: 'B', email: 'a@b.test' }),
        () => off.getSubscription(1),
        () => off.listCustomerSubscriptions(1),
        () => off.createSubscription(request, 't'),
        () => off.previewSubscription(request),
        () => off.cancelNow(1),
        () => off.cancelAtPeriodEnd(1),
        () =>
          off.allocate(1, {
            seats: { members: 1, shareholders: 1 },
            upgradeCharge: 'full',
            downgradeCredit: 'none',
            accrueCharge: false,
          }),
        () => off.createAdjustment(1, { amountInCents: 1, memo: 'x' }, 't'),
        () => off.listInvoices(1),
        () => off.createPaymentProfile(1, 'tok'),
        () => off.listPaymentProfiles(1),
        () => off.updatePaymentProfile(1, {}),
        () => off.deletePaymentProfile(1),
        () => off.changeSubscriptionPaymentProfile(1, 1),
      ];
      for (const call of calls) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DomainError);
        expect(renderDomainError(error as DomainError)).toMatchObject({
          status: 500,
          body: { key: 'billingNotConfigured' },
        });
      }
      expect(fake.requests).toEqual([]);
    });

    it('needs BILLING_PRODUCT_FAMILY for the member components', async () => {
      const { BILLING_PRODUCT_FAMILY: _family, ...env } = fake.env();
      await expect(make(env).listFamilyComponents()).rejects.toMatchObject({
        key: 'billingNotConfigured',
        message: 'billing is not configured: BILLING_PRODUCT_FAMILY is unset',
      });
      expect(fake.requests).toEqual([]);
    });
  });
});
