import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { BillingWire } from '../../src/billing';
import { addInterval, manifest, PricedComponent } from './billing-pricing';
import { deliver, FakeWebhook, SendOptions, WebhookDelivery } from './billing-webhooks';
import { listenOnFreePort } from './listen';

export type { FakeWebhook, WebhookDelivery } from './billing-webhooks';

type Product = BillingWire.Product;
type Component = BillingWire.Component;
type Subscription = BillingWire.Subscription;

export interface FakeBillingRequest {
  method: string;
  /** Without the query. */
  path: string;
  query: Record<string, string>;
  /** The parsed JSON body, if any. */
  body: unknown;
  /** Carried the fake's API key as Basic auth. */
  authorized: boolean;
  /** The caller's port of the connection (which process called, for tests with several). */
  remotePort?: number;
}

interface Fault {
  match?: string | RegExp;
  times: number;
  /** Answer this status (with Retry-After, a body) instead of the request's answer. */
  status?: number;
  /** Handle the request first (its write is done): the answer is lost on the way back. */
  handled?: boolean;
  retryAfter?: string;
  body?: unknown;
  /** Handle the request, but only after this long (longer than the client waits). */
  delayMs?: number;
}

export interface SeedProduct {
  handle: string;
  name?: string;
  priceInCents: number;
  interval?: number;
  intervalUnit?: BillingWire.IntervalUnit;
  /** Further price points besides the default one (same product, other prices or intervals). */
  pricePoints?: {
    handle: string;
    name?: string;
    priceInCents: number;
    interval?: number;
    intervalUnit?: BillingWire.IntervalUnit;
  }[];
}

export interface SeedComponent {
  handle: string;
  name?: string;
  unitName?: string;
  pricingScheme?: BillingWire.PricingScheme;
  /** Tiers; `endingQuantity` left out = no upper bound. */
  prices: { startingQuantity: number; endingQuantity?: number; unitPrice: string }[];
}

export interface SeedCoupon {
  code: string;
  name?: string;
  /** Decimal string, e.g. `"20.0"`; or `amountInCents`. */
  percentage?: string;
  amountInCents?: number;
  recurring?: boolean;
  durationPeriodCount?: number;
  endDate?: string;
  archived?: boolean;
}

export interface SeedCard {
  cardType?: string;
  last4?: string;
  expirationMonth?: number;
  expirationYear?: number;
  firstName?: string;
  lastName?: string;
}

const FAMILY: BillingWire.ProductFamily = { id: 1, name: 'Ledgerline', handle: 'ledgerline' };
const SITE = { id: 7, subdomain: 'ledgerline-test' };

/**
 * A local Maxio Advanced Billing (ex-Chargify) site: the calls BillingProvider makes, in the
 * provider's JSON, on 127.0.0.1 with a free port. Requests need Basic auth with `apiKey` (401
 * otherwise). State lives in memory and may be seeded (`seedCatalogue()` makes the plans
 * `starter` and `growth` and the components `members` and `shareholders`) or read directly.
 * Every request is recorded; `failNext` and `slowNext` inject failures; `sendWebhook` delivers
 * signed webhooks. Writes that carry a used `uniqueness_token` answer 422 "Uniqueness token has
 * already been taken" and change nothing.
 */
export class FakeBilling {
  readonly apiKey = 'fake-billing-api-key';
  readonly siteSharedKey = 'fake-billing-site-shared-key-of-32-chars-or-more';
  readonly family = FAMILY;
  readonly requests: FakeBillingRequest[] = [];
  url = '';

  readonly products = new Map<number, Product>();
  readonly productPricePoints = new Map<number, BillingWire.ProductPricePoint>();
  readonly components = new Map<number, Component>();
  readonly componentPricePoints = new Map<number, BillingWire.ComponentPricePoint>();
  readonly coupons = new Map<string, BillingWire.Coupon>();
  readonly customers = new Map<number, BillingWire.Customer>();
  readonly subscriptions = new Map<number, Subscription>();
  /** Allocated quantities by subscription id, then component id. */
  readonly quantities = new Map<number, Map<number, number>>();
  readonly paymentProfiles = new Map<number, BillingWire.PaymentProfile>();
  readonly invoices: BillingWire.Invoice[] = [];
  readonly adjustments: BillingWire.Adjustment[] = [];
  /** The uniqueness token each adjustment was made with, by adjustment id. */
  readonly adjustmentTokens = new Map<number, string>();
  readonly allocations: BillingWire.Allocation[] = [];

  private server?: Server;
  private nextId = 1000;
  private nextWebhookId = 5000;
  private lastChange = 0;
  private faults: Fault[] = [];
  private watchers: {
    watch: (request: FakeBillingRequest) => Promise<void>;
    path?: string | RegExp;
  }[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly usedTokens = new Set<string>();
  private readonly cardTokens = new Map<string, Required<SeedCard>>();

  static async start(): Promise<FakeBilling> {
    const fake = new FakeBilling();
    await fake.listen();
    return fake;
  }

  /** The app's BILLING_* variables pointing at this fake. */
  env(): Record<string, string> {
    return {
      BILLING_PROVIDER_URL: this.url,
      BILLING_API_KEY: this.apiKey,
      BILLING_SITE_SHARED_KEY: this.siteSharedKey,
      BILLING_PRODUCT_FAMILY: `handle:${FAMILY.handle}`,
    };
  }

  close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    return new Promise((resolve, reject) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close((err) => (err ? reject(err) : resolve()));
    });
  }

  // Faults

  /**
   * The next `times` requests (matching `path`, a path or a pattern of it, if given) answer
   * `status` with `Retry-After: retryAfter` and `body` (default `{errors: [...]}`), unhandled
   * unless `handled` (then the write is done and only its answer is replaced).
   */
  failNext(
    status: number,
    options: {
      times?: number;
      retryAfter?: string;
      body?: unknown;
      path?: string | RegExp;
      handled?: boolean;
    } = {},
  ): void {
    const { times = 1, path, ...answer } = options;
    this.faults.push({ status, times, match: path, ...answer });
  }

  /** The next `times` matching requests are handled (their writes done) only after `delayMs`. */
  slowNext(delayMs: number, options: { times?: number; path?: string | RegExp } = {}): void {
    this.faults.push({ delayMs, times: options.times ?? 1, match: options.path });
  }

  /**
   * Runs `watch` on every request (matching `path`, if given) before it is handled: the caller
   * waits for the answer meanwhile, so the watcher sees the app as it is during a provider call.
   * Answers a function that removes the watcher.
   */
  during(
    watch: (request: FakeBillingRequest) => Promise<void>,
    path?: string | RegExp,
  ): () => void {
    const watcher = { watch, path };
    this.watchers.push(watcher);
    return () => (this.watchers = this.watchers.filter((w) => w !== watcher));
  }

  /** The recorded requests of one method and path (a pattern matches paths with ids). */
  requestsTo(method: string, path: string | RegExp): FakeBillingRequest[] {
    return this.requests.filter((r) => r.method === method && matches(path, r.path));
  }

  // Seeding

  /** The plans `starter` and `growth` (monthly) and the per-unit components `members` and `shareholders`. */
  seedCatalogue(): void {
    this.seedProduct({ handle: 'starter', name: 'Starter', priceInCents: 4900 });
    this.seedProduct({
      handle: 'growth',
      name: 'Growth',
      priceInCents: 19900,
      pricePoints: [
        { handle: 'growth-annual', name: 'Growth yearly', priceInCents: 199000, interval: 12 },
      ],
    });
    this.seedComponent({
      handle: 'members',
      name: 'Members',
      unitName: 'member',
      pricingScheme: 'tiered',
      prices: [
        { startingQuantity: 1, endingQuantity: 10, unitPrice: '0.0' },
        { startingQuantity: 11, unitPrice: '2.0' },
      ],
    });
    this.seedComponent({
      handle: 'shareholders',
      name: 'Shareholders',
      unitName: 'shareholder',
      pricingScheme: 'per_unit',
      prices: [{ startingQuantity: 1, unitPrice: '0.5' }],
    });
  }

  seedProduct(seed: SeedProduct): Product {
    const at = this.timestamp();
    const product: Product = {
      id: this.id(),
      name: seed.name ?? seed.handle,
      handle: seed.handle,
      description: null,
      price_in_cents: seed.priceInCents,
      interval: seed.interval ?? 1,
      interval_unit: seed.intervalUnit ?? 'month',
      initial_charge_in_cents: null,
      trial_price_in_cents: null,
      trial_interval: null,
      trial_interval_unit: null,
      archived_at: null,
      default_product_price_point_id: null,
      product_family: FAMILY,
      created_at: at,
      updated_at: at,
    };
    this.products.set(product.id, product);
    const points = [
      {
        handle: `${seed.handle}-default`,
        name: 'Original',
        priceInCents: seed.priceInCents,
        interval: product.interval,
        intervalUnit: product.interval_unit,
        type: 'default' as const,
      },
      ...(seed.pricePoints ?? []).map((p) => ({ ...p, type: 'catalog' as const })),
    ];
    for (const p of points) {
      const point: BillingWire.ProductPricePoint = {
        id: this.id(),
        name: p.name ?? p.handle,
        handle: p.handle,
        price_in_cents: p.priceInCents,
        interval: p.interval ?? 1,
        interval_unit: p.intervalUnit ?? 'month',
        trial_price_in_cents: null,
        trial_interval: null,
        trial_interval_unit: null,
        product_id: product.id,
        archived_at: null,
        type: p.type,
      };
      this.productPricePoints.set(point.id, point);
      if (p.type === 'default') product.default_product_price_point_id = point.id;
    }
    return product;
  }

  seedComponent(seed: SeedComponent): Component {
    const at = this.timestamp();
    const id = this.id();
    const pricePointId = this.id();
    const scheme = seed.pricingScheme ?? 'per_unit';
    const prices: BillingWire.ComponentPrice[] = seed.prices.map((p) => ({
      id: this.id(),
      component_id: id,
      starting_quantity: p.startingQuantity,
      ending_quantity: p.endingQuantity ?? null,
      unit_price: p.unitPrice,
      price_point_id: pricePointId,
      formatted_unit_price: `$${Number(p.unitPrice).toFixed(2)}`,
    }));
    const component: Component = {
      id,
      name: seed.name ?? seed.handle,
      handle: seed.handle,
      kind: 'quantity_based_component',
      unit_name: seed.unitName ?? 'unit',
      pricing_scheme: scheme,
      product_family_id: FAMILY.id,
      default_price_point_id: pricePointId,
      prices,
      archived: false,
      created_at: at,
      updated_at: at,
    };
    this.components.set(id, component);
    this.componentPricePoints.set(pricePointId, {
      id: pricePointId,
      name: 'Original',
      handle: `${seed.handle}-default`,
      type: 'default',
      default: true,
      pricing_scheme: scheme,
      component_id: id,
      archived_at: null,
      prices,
    });
    return component;
  }

  seedCoupon(seed: SeedCoupon): BillingWire.Coupon {
    const coupon: BillingWire.Coupon = {
      id: this.id(),
      name: seed.name ?? seed.code,
      code: seed.code.toUpperCase(),
      description: null,
      percentage: seed.percentage ?? null,
      amount_in_cents: seed.percentage === undefined ? (seed.amountInCents ?? 0) : null,
      recurring: seed.recurring ?? false,
      duration_period_count: seed.durationPeriodCount ?? null,
      product_family_id: FAMILY.id,
      start_date: this.timestamp(),
      end_date: seed.endDate ?? null,
      archived_at: seed.archived ? this.timestamp() : null,
      discount_type: seed.percentage === undefined ? 'amount' : 'percent',
    };
    this.coupons.set(coupon.code, coupon);
    return coupon;
  }

  seedCustomer(seed: {
    reference: string;
    email?: string;
    firstName?: string;
    lastName?: string;
  }): BillingWire.Customer {
    const at = this.timestamp();
    const customer: BillingWire.Customer = {
      id: this.id(),
      first_name: seed.firstName ?? 'Ada',
      last_name: seed.lastName ?? 'Lovelace',
      email: seed.email ?? `${seed.reference}@example.test`,
      organization: null,
      reference: seed.reference,
      created_at: at,
      updated_at: at,
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  /** A token as the provider's JS returns for a card form: `POST /payment_profiles.json` takes it once. */
  cardToken(card: SeedCard = {}): string {
    const token = `tok_${this.id()}`;
    this.cardTokens.set(token, {
      cardType: card.cardType ?? 'visa',
      last4: card.last4 ?? '1111',
      expirationMonth: card.expirationMonth ?? 12,
      expirationYear: card.expirationYear ?? new Date().getUTCFullYear() + 3,
      firstName: card.firstName ?? 'Ada',
      lastName: card.lastName ?? 'Lovelace',
    });
    return token;
  }

  seedInvoice(
    subscriptionId: number,
    seed: {
      totalInCents: number;
      status?: BillingWire.InvoiceStatus;
      issueDate?: string;
      memo?: string;
    },
  ): BillingWire.Invoice {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
    const total = decimal(seed.totalInCents);
    const paid = seed.status === undefined || seed.status === 'paid';
    const at = this.timestamp();
    const invoice: BillingWire.Invoice = {
      uid: `inv_${this.id()}`,
      number: String(this.invoices.length + 1),
      subscription_id: subscriptionId,
      customer_id: subscription.customer.id,
      status: seed.status ?? 'paid',
      issue_date: seed.issueDate ?? at.slice(0, 10),
      due_date: seed.issueDate ?? at.slice(0, 10),
      paid_date: paid ? (seed.issueDate ?? at.slice(0, 10)) : null,
      currency: 'USD',
      subtotal_amount: total,
      discount_amount: '0.0',
      tax_amount: '0.0',
      total_amount: total,
      paid_amount: paid ? total : '0.0',
      due_amount: paid ? '0.0' : total,
      memo: seed.memo ?? null,
      public_url: `${this.url}/invoices/${this.invoices.length + 1}`,
      created_at: at,
    };
    this.invoices.push(invoice);
    return invoice;
  }

  /** A change made at the provider (a renewal, dunning, an operator): the subscription's updated_at moves on. */
  updateSubscription(subscriptionId: number, changes: Partial<Subscription>): Subscription {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
    Object.assign(subscription, changes, { updated_at: this.changedAt() });
    return subscription;
  }

  // Webhooks

  /**
   * A webhook about a subscription as the provider would send it now: `payload[subscription]`
   * (with its customer and product), `payload[site]` and `extra` (e.g. `transaction`,
   * `previous_state`). `updatedAt` backdates `payload[subscription][updated_at]` (an event
   * delivered out of order).
   */
  subscriptionWebhook(
    event: string,
    subscriptionId: number,
    options: { updatedAt?: string; extra?: Record<string, unknown> } = {},
  ): FakeWebhook {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
    const id = this.nextWebhookId++;
    return {
      id,
      event,
      payload: {
        subscription: { ...subscription, updated_at: options.updatedAt ?? subscription.updated_at },
        site: SITE,
        event_id: id,
        ...options.extra,
      },
    };
  }

  /** Posts the webhook to `target`, signed with `siteSharedKey` (or badly), once or `times` times. */
  sendWebhook(
    target: string,
    webhook: FakeWebhook,
    options: SendOptions = {},
  ): Promise<WebhookDelivery[]> {
    return deliver(target, webhook, this.siteSharedKey, options);
  }

  // The server

  private async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.receive(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    const port = await listenOnFreePort(this.server);
    this.url = `http://127.0.0.1:${port}`;
  }

  private receive(req: IncomingMessage, raw: string, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return sendJson(res, 400, { errors: ['the body is not JSON'] });
    }
    const request: FakeBillingRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
      authorized: this.authorized(req.headers.authorization),
      remotePort: req.socket.remotePort,
    };
    this.requests.push(request);
    const watching = this.watchers.filter(
      (w) => w.path === undefined || matches(w.path, url.pathname),
    );
    if (!watching.length) return this.handle(request, req, res);
    Promise.all(watching.map((w) => w.watch(request))).then(
      () => this.handle(request, req, res),
      (err: Error) => sendJson(res, 500, { errors: [`fake billing watcher: ${err.message}`] }),
    );
  }

  private handle(request: FakeBillingRequest, req: IncomingMessage, res: ServerResponse) {
    const fault = this.faultFor(request.path);
    if (fault?.status !== undefined) {
      if (fault.handled) this.answer(request, new ServerResponse(req));
      if (fault.retryAfter !== undefined) res.setHeader('retry-after', fault.retryAfter);
      return sendJson(res, fault.status, fault.body ?? { errors: [`injected ${fault.status}`] });
    }
    const answer = () => {
      if (res.destroyed) return;
      try {
        this.answer(request, res);
      } catch (err) {
        sendJson(res, 500, { errors: [`fake billing: ${(err as Error).message}`] });
      }
    };
    if (fault?.delayMs === undefined) return answer();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      answer();
    }, fault.delayMs);
    this.timers.add(timer);
  }

  private faultFor(path: string): Fault | undefined {
    const fault = this.faults.find((f) => f.match === undefined || matches(f.match, path));
    if (fault && --fault.times <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }

  private authorized(header: string | undefined): boolean {
    const encoded = /^Basic (.+)$/.exec(header ?? '')?.[1];
    if (!encoded) return false;
    const [user] = Buffer.from(encoded, 'base64').toString('utf8').split(':');
    return user === this.apiKey;
  }

  private answer(request: FakeBillingRequest, res: ServerResponse) {
    if (!request.authorized) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      return res.end('HTTP Basic: Access denied.\n');
    }
    const { method, path, query } = request;
    const body = (request.body ?? {}) as Record<string, Record<string, unknown> | undefined>;
    const id = (pattern: RegExp) => {
      const m = pattern.exec(path);
      return m ? m.slice(1) : undefined;
    };
    let m: string[] | undefined;
    const route = `${method} ${path}`;
    if (route === 'GET /products.json') {
      return sendJson(
        res,
        200,
        [...this.products.values()].map((product) => ({ product })),
      );
    }
    if (method === 'GET' && (m = id(/^\/(products|components)\/(\d+)\/price_points\.json$/))) {
      return this.listPricePoints(m[0], Number(m[1]), res);
    }
    if (method === 'GET' && (m = id(/^\/product_families\/([^/]+)\/components\.json$/))) {
      if (m[0] !== String(FAMILY.id) && m[0] !== `handle:${FAMILY.handle}`) return notFound(res);
      return sendJson(
        res,
        200,
        [...this.components.values()].map((component) => ({ component })),
      );
    }
    if (route === 'GET /coupons/validate.json') {
      const coupon = this.coupons.get((query.code ?? '').toUpperCase());
      if (!coupon || coupon.archived_at) {
        return sendJson(res, 404, { errors: ['Coupon code could not be found.'] });
      }
      return sendJson(res, 200, { coupon });
    }
    if (route === 'GET /customers/lookup.json') {
      const customer = [...this.customers.values()].find((c) => c.reference === query.reference);
      return customer ? sendJson(res, 200, { customer }) : notFound(res);
    }
    if (route === 'POST /customers.json') return this.createCustomer(body.customer ?? {}, res);
    if (method === 'GET' && (m = id(/^\/customers\/(\d+)\/subscriptions\.json$/))) {
      const customerId = Number(m[0]);
      if (!this.customers.has(customerId)) return notFound(res);
      const list = [...this.subscriptions.values()].filter((s) => s.customer.id === customerId);
      return sendJson(
        res,
        200,
        list.map((subscription) => ({ subscription })),
      );
    }
    if (route === 'POST /subscriptions.json' || route === 'POST /subscriptions/preview.json') {
      return this.signup(body.subscription ?? {}, route.endsWith('preview.json'), res);
    }
    if ((m = id(/^\/subscriptions\/(\d+)\.json$/))) {
      const subscription = this.subscriptions.get(Number(m[0]));
      if (!subscription) return notFound(res);
      if (method === 'GET') return sendJson(res, 200, { subscription });
      if (method === 'DELETE') return this.cancelNow(subscription, res);
    }
    if (method === 'POST' && (m = id(/^\/subscriptions\/(\d+)\/delayed_cancel\.json$/))) {
      const subscription = this.subscriptions.get(Number(m[0]));
      if (!subscription) return notFound(res);
      this.updateSubscription(subscription.id, {
        cancel_at_end_of_period: true,
        delayed_cancel_at: subscription.current_period_ends_at,
      });
      return sendJson(res, 200, {
        message: 'This subscription will be canceled at the end of the current period.',
      });
    }
    if (method === 'POST' && (m = id(/^\/subscriptions\/(\d+)\/allocations\.json$/))) {
      const subscription = this.subscriptions.get(Number(m[0]));
      if (!subscription) return notFound(res);
      return this.allocate(subscription, body as Record<string, unknown>, res);
    }
    if (method === 'POST' && (m = id(/^\/subscriptions\/(\d+)\/adjustments\.json$/))) {
      const subscription = this.subscriptions.get(Number(m[0]));
      if (!subscription) return notFound(res);
      return this.adjust(subscription, body.adjustment ?? {}, res);
    }
    if (route === 'GET /invoices.json') return this.listInvoices(query, res);
    if (route === 'POST /payment_profiles.json') {
      return this.createPaymentProfile(body.payment_profile ?? {}, res);
    }
    if (route === 'GET /payment_profiles.json') {
      const list = [...this.paymentProfiles.values()].filter(
        (p) => query.customer_id === undefined || String(p.customer_id) === query.customer_id,
      );
      return sendJson(
        res,
        200,
        list.map((payment_profile) => ({ payment_profile })),
      );
    }
    if ((m = id(/^\/payment_profiles\/(\d+)\.json$/))) {
      const profile = this.paymentProfiles.get(Number(m[0]));
      if (!profile) return notFound(res);
      if (method === 'PUT')
        return this.updatePaymentProfile(profile, body.payment_profile ?? {}, res);
      if (method === 'DELETE') return this.deletePaymentProfile(profile, res);
    }
    if (
      method === 'POST' &&
      (m = id(/^\/subscriptions\/(\d+)\/payment_profiles\/(\d+)\/change_payment_profile\.json$/))
    ) {
      const subscription = this.subscriptions.get(Number(m[0]));
      const profile = this.paymentProfiles.get(Number(m[1]));
      if (!subscription || !profile) return notFound(res);
      if (profile.customer_id !== subscription.customer.id) {
        return refuse(res, ["Payment profile does not belong to the subscription's customer"]);
      }
      this.updateSubscription(subscription.id, { credit_card: profile });
      return sendJson(res, 200, { payment_profile: profile });
    }
    return sendJson(res, 501, { errors: [`the fake does not implement ${method} ${path}`] });
  }

  private listPricePoints(owner: string, ownerId: number, res: ServerResponse) {
    const points =
      owner === 'products'
        ? this.products.has(ownerId) &&
          [...this.productPricePoints.values()].filter((p) => p.product_id === ownerId)
        : this.components.has(ownerId) &&
          [...this.componentPricePoints.values()].filter((p) => p.component_id === ownerId);
    return points ? sendJson(res, 200, { price_points: points }) : notFound(res);
  }

  private createCustomer(input: Record<string, unknown>, res: ServerResponse) {
    const errors = [
      ...(input.first_name ? [] : ['First name: cannot be blank.']),
      ...(input.last_name ? [] : ['Last name: cannot be blank.']),
      ...(input.email ? [] : ['Email address: cannot be blank.']),
    ];
    const reference = input.reference as string | undefined;
    if (reference && [...this.customers.values()].some((c) => c.reference === reference)) {
      errors.push('Reference: must be unique - that value has been taken.');
    }
    if (errors.length) return refuse(res, errors);
    const customer = this.seedCustomer({
      reference: reference ?? '',
      email: String(input.email),
      firstName: String(input.first_name),
      lastName: String(input.last_name),
    });
    customer.reference = reference ?? null;
    customer.organization = (input.organization as string | undefined) ?? null;
    return sendJson(res, 201, { customer });
  }

  /** `POST /subscriptions.json` and its preview: the same checks, then a subscription or a manifest. */
  private signup(input: Record<string, unknown>, preview: boolean, res: ServerResponse) {
    const token = input.uniqueness_token as string | undefined;
    if (!preview && this.tokenUsed(token, res)) return;
    const product = [...this.products.values()].find((p) => p.handle === input.product_handle);
    const customer = this.customers.get(Number(input.customer_id));
    const pointHandle = input.product_price_point_handle as string | undefined;
    const point = [...this.productPricePoints.values()].find(
      (p) =>
        p.product_id === product?.id &&
        (pointHandle ? p.handle === pointHandle : p.type === 'default'),
    );
    const profileId = input.payment_profile_id as number | undefined;
    const profile =
      profileId === undefined ? undefined : this.paymentProfiles.get(Number(profileId));
    const codes = (input.coupon_codes as string[] | undefined) ?? [];
    const coupons = codes.map((c) => this.coupons.get(String(c).toUpperCase()));
    const requested =
      (input.components as { component_id: unknown; allocated_quantity: unknown }[] | undefined) ??
      [];
    const priced = requested.map((c) => ({
      component: this.componentOf(c.component_id),
      quantity: Number(c.allocated_quantity),
    }));
    const errors = [
      ...(product
        ? []
        : [`Product: could not be found with handle '${String(input.product_handle)}'.`]),
      ...(product && !point
        ? [`Product price point: could not be found with handle '${pointHandle}'.`]
        : []),
      ...(customer ? [] : ['Customer: must be specified.']),
      ...(profileId !== undefined && (!profile || profile.customer_id !== customer?.id)
        ? ['Payment profile: could not be found.']
        : []),
      ...codes.filter((_, i) => !usable(coupons[i])).map((c) => `Coupon code: '${c}' is invalid.`),
      ...requested
        .filter((_, i) => !priced[i].component)
        .map((c) => `Component: '${String(c.component_id)}' could not be found.`),
      ...priced
        .filter((p) => !Number.isInteger(p.quantity) || p.quantity < 0)
        .map(() => 'Allocated quantity: must be a whole number, 0 or more.'),
    ];
    if (errors.length) return refuse(res, errors);
    const components = priced as PricedComponent[];
    const valid = coupons as BillingWire.Coupon[];
    const start = new Date(this.changedAt());
    const end = addInterval(start, point!.interval, point!.interval_unit);
    const after = addInterval(end, point!.interval, point!.interval_unit);
    const current = manifest(product!, point!.price_in_cents, components, valid, {
      start: iso(start),
      end: iso(end),
      type: 'initial',
    });
    if (preview) {
      const next = manifest(
        product!,
        point!.price_in_cents,
        components,
        valid.filter((c) => c.recurring),
        { start: iso(end), end: iso(after), type: 'recurring' },
      );
      return sendJson(res, 200, {
        subscription_preview: { current_billing_manifest: current, next_billing_manifest: next },
      });
    }
    if (token) this.usedTokens.add(token);
    const at = iso(start);
    const subscription: Subscription = {
      id: this.id(),
      state: 'active',
      balance_in_cents: 0,
      product_price_in_cents: point!.price_in_cents,
      product_price_point_id: point!.id,
      current_period_started_at: at,
      current_period_ends_at: iso(end),
      next_assessment_at: iso(end),
      trial_started_at: null,
      trial_ended_at: null,
      activated_at: at,
      canceled_at: null,
      delayed_cancel_at: null,
      cancel_at_end_of_period: false,
      coupon_codes: valid.map((c) => c.code),
      currency: 'USD',
      created_at: at,
      updated_at: at,
      customer: customer!,
      product: product!,
      ...(profile ? { credit_card: profile } : {}),
    };
    this.subscriptions.set(subscription.id, subscription);
    this.quantities.set(
      subscription.id,
      new Map(components.map((c) => [c.component.id, c.quantity])),
    );
    this.seedInvoice(subscription.id, { totalInCents: current.total_in_cents, memo: 'Signup' });
    return sendJson(res, 201, { subscription });
  }

  private cancelNow(subscription: Subscription, res: ServerResponse) {
    if (subscription.state === 'canceled') {
      return refuse(res, ['Subscription is already canceled.']);
    }
    const at = this.changedAt();
    Object.assign(subscription, {
      state: 'canceled',
      canceled_at: at,
      cancel_at_end_of_period: false,
      delayed_cancel_at: null,
      updated_at: at,
    });
    return sendJson(res, 200, { subscription });
  }

  private allocate(
    subscription: Subscription,
    input: Record<string, unknown>,
    res: ServerResponse,
  ) {
    if (this.tokenUsed(input.uniqueness_token as string | undefined, res)) return;
    const requested =
      (input.allocations as
        { component_id: unknown; quantity: unknown; memo?: string }[] | undefined) ?? [];
    const errors = [
      ...(requested.length ? [] : ['Allocations: must have at least one allocation.']),
      ...(subscription.state === 'canceled'
        ? ['Subscription: cannot allocate components to a canceled subscription.']
        : []),
      ...requested
        .filter((a) => !this.componentOf(a.component_id))
        .map((a) => `Component: '${String(a.component_id)}' could not be found.`),
      ...requested
        .filter((a) => !Number.isInteger(a.quantity) || Number(a.quantity) < 0)
        .map(() => 'Quantity: must be a whole number, 0 or more.'),
    ];
    if (errors.length) return refuse(res, errors);
    if (input.uniqueness_token) this.usedTokens.add(String(input.uniqueness_token));
    const quantities = this.quantities.get(subscription.id) ?? new Map<number, number>();
    this.quantities.set(subscription.id, quantities);
    const at = this.changedAt();
    const made = requested.map((a) => {
      const component = this.componentOf(a.component_id)!;
      const allocation: BillingWire.Allocation = {
        allocation_id: this.id(),
        component_id: component.id,
        component_handle: component.handle,
        subscription_id: subscription.id,
        quantity: Number(a.quantity),
        previous_quantity: quantities.get(component.id) ?? 0,
        memo: a.memo ?? null,
        timestamp: at,
        created_at: at,
        upgrade_charge: (input.upgrade_charge as BillingWire.CreditType | undefined) ?? null,
        downgrade_credit: (input.downgrade_credit as BillingWire.CreditType | undefined) ?? null,
        accrue_charge: Boolean(input.accrue_charge),
      };
      quantities.set(component.id, allocation.quantity);
      this.allocations.push(allocation);
      return { allocation };
    });
    subscription.updated_at = at;
    return sendJson(res, 201, made);
  }

  private adjust(subscription: Subscription, input: Record<string, unknown>, res: ServerResponse) {
    if (this.tokenUsed(input.uniqueness_token as string | undefined, res)) return;
    const amount = input.amount_in_cents;
    const errors = [
      ...(Number.isInteger(amount) ? [] : ['Amount: is not a number.']),
      ...(input.memo ? [] : ['Memo: cannot be blank.']),
    ];
    if (errors.length) return refuse(res, errors);
    if (input.uniqueness_token) this.usedTokens.add(String(input.uniqueness_token));
    subscription.balance_in_cents += Number(amount);
    const adjustment: BillingWire.Adjustment = {
      id: this.id(),
      success: true,
      memo: String(input.memo),
      amount_in_cents: Number(amount),
      ending_balance_in_cents: subscription.balance_in_cents,
      type: 'Adjustment',
      transaction_type: 'adjustment',
      subscription_id: subscription.id,
      product_id: subscription.product.id,
      created_at: this.timestamp(),
    };
    this.adjustments.push(adjustment);
    if (input.uniqueness_token) {
      this.adjustmentTokens.set(adjustment.id, String(input.uniqueness_token));
    }
    return sendJson(res, 201, { adjustment });
  }

  private listInvoices(query: Record<string, string>, res: ServerResponse) {
    // Like the provider: 20 a page by default, 200 at most; sorted by number.
    const page = Number(query.page ?? 1);
    const perPage = Math.min(Number(query.per_page ?? 20), 200);
    const list = this.invoices.filter(
      (i) =>
        query.subscription_id === undefined || String(i.subscription_id) === query.subscription_id,
    );
    if (query.direction === 'desc') list.reverse();
    return sendJson(res, 200, { invoices: list.slice((page - 1) * perPage, page * perPage) });
  }

  private createPaymentProfile(input: Record<string, unknown>, res: ServerResponse) {
    const customer = this.customers.get(Number(input.customer_id));
    const card = this.cardTokens.get(String(input.chargify_token));
    const errors = [
      ...(customer ? [] : ['Customer: must be specified.']),
      ...(card ? [] : ['Chargify token: not found or already used.']),
    ];
    if (errors.length) return refuse(res, errors);
    this.cardTokens.delete(String(input.chargify_token));
    const profile: BillingWire.PaymentProfile = {
      id: this.id(),
      customer_id: customer!.id,
      first_name: card!.firstName,
      last_name: card!.lastName,
      payment_type: 'credit_card',
      masked_card_number: `XXXX-XXXX-XXXX-${card!.last4}`,
      card_type: card!.cardType,
      expiration_month: card!.expirationMonth,
      expiration_year: card!.expirationYear,
      current_vault: 'bogus',
      disabled: false,
    };
    this.paymentProfiles.set(profile.id, profile);
    return sendJson(res, 201, { payment_profile: profile });
  }

  private updatePaymentProfile(
    profile: BillingWire.PaymentProfile,
    input: Record<string, unknown>,
    res: ServerResponse,
  ) {
    const month = input.expiration_month;
    if (
      month !== undefined &&
      (!Number.isInteger(month) || Number(month) < 1 || Number(month) > 12)
    ) {
      return refuse(res, ['Expiration month: must be from 1 to 12.']);
    }
    for (const field of [
      'first_name',
      'last_name',
      'expiration_month',
      'expiration_year',
    ] as const) {
      if (input[field] !== undefined) Object.assign(profile, { [field]: input[field] });
    }
    return sendJson(res, 200, { payment_profile: profile });
  }

  private deletePaymentProfile(profile: BillingWire.PaymentProfile, res: ServerResponse) {
    const inUse = [...this.subscriptions.values()].some(
      (s) => s.credit_card?.id === profile.id && s.state !== 'canceled' && s.state !== 'expired',
    );
    if (inUse) return refuse(res, ['This payment profile is in use by a subscription.']);
    this.paymentProfiles.delete(profile.id);
    res.writeHead(204).end();
  }

  /** A write whose token was used answers the provider's 422 and does nothing. */
  private tokenUsed(token: string | undefined, res: ServerResponse): boolean {
    if (!token || !this.usedTokens.has(token)) return false;
    refuse(res, ['Uniqueness token has already been taken.']);
    return true;
  }

  /** `handle:members` or an id. */
  private componentOf(ref: unknown): Component | undefined {
    const text = String(ref);
    const components = [...this.components.values()];
    return text.startsWith('handle:')
      ? components.find((c) => c.handle === text.slice('handle:'.length))
      : components.find((c) => c.id === Number(text));
  }

  private id(): number {
    return this.nextId++;
  }

  /** Now, to the second as the provider writes it. */
  private timestamp(): string {
    return iso(new Date());
  }

  /**
   * A subscription's new updated_at: now, and always after the previous change (so that two
   * changes within a second stay ordered, as webhook receivers compare them).
   */
  private changedAt(): string {
    this.lastChange = Math.max(Math.floor(Date.now() / 1000) * 1000, this.lastChange + 1000);
    return iso(new Date(this.lastChange));
  }
}

const iso = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Cents as the provider writes invoice amounts (`"49.0"`). */
const decimal = (cents: number) => (cents / 100).toFixed(cents % 100 === 0 ? 1 : 2);

const matches = (pattern: string | RegExp, path: string) =>
  typeof pattern === 'string' ? pattern === path : pattern.test(path);

const usable = (coupon: BillingWire.Coupon | undefined) =>
  !!coupon && !coupon.archived_at && (!coupon.end_date || Date.parse(coupon.end_date) > Date.now());

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

const notFound = (res: ServerResponse) => sendJson(res, 404, { errors: ['Not Found'] });
const refuse = (res: ServerResponse, errors: string[]) => sendJson(res, 422, { errors });
