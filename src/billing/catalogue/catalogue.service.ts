import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { AnswerCache, Clock, RateLimiter } from '../../common';
import { BillingConfig } from '../../config';
import { RedisConnections } from '../../redis';
import { centsToDecimal, normalizeDecimal } from '../money';
import { planOfProduct } from '../plans';
import { BillingProvider } from '../provider/billing-provider';
import { billingNotConfigured } from '../provider/errors';
import type { Component, ComponentPrice, Product } from '../provider/wire';
import { ComponentPricingView, MemberPricingView, ProductView } from './catalogue.view';

/** Catalogue reads per user and minute (both routes together): a page shows both, some times. */
export const CATALOGUE_LIMIT = { limit: 30, windowMs: 60_000 };
/** How long the provider's catalogue is kept: it changes when an operator edits the plans. */
export const CATALOGUE_TTL_MS = 5 * 60_000;

/**
 * The plans on sale and the seat prices, read from the provider's catalogue. The same for every
 * user: kept in Redis for CATALOGUE_TTL_MS (every instance answers from one copy, and a burst of
 * page loads costs the provider one read), and rate limited per user.
 */
@Injectable()
export class CatalogueService implements OnModuleDestroy {
  private readonly logger = new Logger(CatalogueService.name);
  private readonly redis: Redis;
  private readonly limiter: RateLimiter;
  private readonly cache: AnswerCache;

  constructor(
    private readonly provider: BillingProvider,
    private readonly env: BillingConfig,
    connections: RedisConnections,
    clock: Clock,
  ) {
    this.redis = connections.session();
    this.limiter = new RateLimiter(
      this.redis,
      `${connections.prefix}billing-catalogue:`,
      CATALOGUE_LIMIT,
      clock,
    );
    this.cache = new AnswerCache(
      this.redis,
      `${connections.prefix}billing:catalogue:`,
      CATALOGUE_TTL_MS,
    );
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  /** The products not archived, cheapest first, each with its price points, features and limits. */
  async products(userId: string): Promise<ProductView[]> {
    return this.kept(userId, 'products', () => this.loadProducts());
  }

  async memberPricing(userId: string): Promise<MemberPricingView> {
    return this.kept(userId, 'member-pricing', () => this.loadMemberPricing());
  }

  /** Counts the user's read, then answers the kept copy or the provider's. */
  private async kept<T>(userId: string, key: string, load: () => Promise<T>): Promise<T> {
    if (!this.provider.configured) throw billingNotConfigured();
    await this.limiter.consume(userId);
    const text = await this.cache.through(key, async () => JSON.stringify(await load()));
    return JSON.parse(text) as T;
  }

  private async loadProducts(): Promise<ProductView[]> {
    const products = (await this.provider.listProducts())
      .filter((p) => !p.archived_at)
      .sort((a, b) => a.price_in_cents - b.price_in_cents || a.handle.localeCompare(b.handle));
    return Promise.all(products.map((p) => this.product(p)));
  }

  private async loadMemberPricing(): Promise<MemberPricingView> {
    const components = await this.provider.listFamilyComponents();
    const pricing = (handle: 'members' | 'shareholders') => {
      const component = components.find((c) => c.handle === handle && !c.archived);
      if (!component) throw new Error(`the product family has no component "${handle}"`);
      return this.componentPricing(component);
    };
    return { members: pricing('members'), shareholders: pricing('shareholders') };
  }

  private async product(product: Product): Promise<ProductView> {
    const { plan, known } = planOfProduct(product.handle);
    if (!known) this.logger.warn(`product "${product.handle}" has no plan: given ${plan.handle}'s`);
    const points = await this.provider.listProductPricePoints(product.id);
    return {
      handle: product.handle,
      name: product.name,
      price: centsToDecimal(product.price_in_cents),
      currency: this.env.BILLING_CURRENCY,
      interval: product.interval,
      intervalUnit: product.interval_unit,
      pricePoints: points
        .filter((p) => !p.archived_at)
        .map((p) => ({
          handle: p.handle,
          name: p.name,
          price: centsToDecimal(p.price_in_cents),
          interval: p.interval,
          intervalUnit: p.interval_unit,
        })),
      features: { ...plan.features },
      limits: { ...plan.limits },
    };
  }

  private componentPricing(component: Component): ComponentPricingView {
    const tiers = [...component.prices]
      .sort((a, b) => a.starting_quantity - b.starting_quantity)
      .map((p) => ({ from: p.starting_quantity, to: p.ending_quantity, unitPrice: unitPrice(p) }));
    return {
      pricingScheme: component.pricing_scheme ?? 'per_unit',
      tiers,
      currency: this.env.BILLING_CURRENCY,
    };
  }
}

function unitPrice(price: ComponentPrice): string {
  const value = normalizeDecimal(price.unit_price);
  // A sub-cent unit price cannot be answered in cents exactly: refuse rather than round.
  if (value === undefined) throw new Error(`unit price ${price.unit_price} is finer than a cent`);
  return value;
}
