import { ApiProperty } from '@nestjs/swagger';
import { PlanFeaturesView, PlanLimitsView } from '../features/plan.view';
import { MoneyView } from '../view-fields';

/** Another price of a product (a yearly one ...). */
export class PricePointView {
  handle: string;
  name: string;
  @MoneyView()
  price: string;
  interval: number;
  /** `month` or `day`. */
  intervalUnit: string;
}

/** A plan on sale. */
export class ProductView {
  handle: string;
  name: string;
  @MoneyView()
  price: string;
  /** ISO 4217. */
  currency: string;
  /** Every `interval` `intervalUnit`s. */
  interval: number;
  intervalUnit: string;
  @ApiProperty({ type: [PricePointView] })
  pricePoints: PricePointView[];
  features: PlanFeaturesView;
  limits: PlanLimitsView;
}

/** Units `from`..`to` (null: no upper bound) cost `unitPrice` each. */
export class PricingTierView {
  from: number;
  to: number | null;
  @MoneyView()
  unitPrice: string;
}

export class ComponentPricingView {
  /** `per_unit`, `volume`, `tiered` or `stairstep`. */
  pricingScheme: string;
  @ApiProperty({ type: [PricingTierView] })
  tiers: PricingTierView[];
  /** ISO 4217. */
  currency: string;
}

/** `GET /v1/billing/member/pricing`. */
export class MemberPricingView {
  members: ComponentPricingView;
  shareholders: ComponentPricingView;
}
