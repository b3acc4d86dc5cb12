import { Injectable, Logger } from '@nestjs/common';
import { Env } from '../../config';
import { centsToDecimal, normalizeDecimal } from '../money';
import { planOfProduct } from '../plans';
import { BillingProvider } from '../provider/billing-provider';
import type { Component, ComponentPrice, Product } from '../provider/wire';
import { ComponentPricingView, MemberPricingView, ProductView } from './catalogue.view';

/** The plans on sale and the seat prices, read from the provider's catalogue. */
@Injectable()
export class CatalogueService {
  private readonly logger = new Logger(CatalogueService.name);

  constructor(
    private readonly provider: BillingProvider,
    private readonly env: Env,
  ) {}

  /** The products not archived, cheapest first, each with its price points, features and limits. */
  async products(): Promise<ProductView[]> {
    const products = (await this.provider.listProducts())
      .filter((p) => !p.archived_at)
      .sort((a, b) => a.price_in_cents - b.price_in_cents || a.handle.localeCompare(b.handle));
    return Promise.all(products.map((p) => this.product(p)));
  }

  async memberPricing(): Promise<MemberPricingView> {
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
