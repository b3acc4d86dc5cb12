import { ApiProperty } from '@nestjs/swagger';
import { MoneyView, TimeView } from '../view-fields';

/** An organization's subscription. */
export class SubscriptionView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ format: 'uuid' })
  organization: string;
  /** The entity billed (the organization's). */
  @ApiProperty({ format: 'uuid' })
  entity: string;
  productHandle: string;
  pricePointHandle: string | null;
  /** The plan it gives (`starter`, `growth`). */
  plan: string;
  /**
   * The provider's state: `active`, `trialing`, `past_due`, `soft_failure`, `unpaid`, `on_hold`,
   * `canceled`, `expired` ...
   */
  state: string;
  /** Any state but `canceled` and `expired`. */
  live: boolean;
  @TimeView({ nullable: true })
  currentPeriodEndsAt: string | null;
  /** Ends at `currentPeriodEndsAt`. */
  cancelAtPeriodEnd: boolean;
  @TimeView()
  created: string;
  @TimeView()
  updated: string;
}

/** A line of a billing preview. */
export class PreviewLineView {
  /** `baseline` (the plan), `quantity_based_component` (seats), `coupon`, `tax` ... */
  kind: string;
  /** `charge`, `credit`, `adjustment` ... */
  transactionType: string;
  memo: string;
  @MoneyView()
  amount: string;
  @MoneyView()
  discount: string;
}

/** What one period costs. */
export class PreviewPeriodView {
  @ApiProperty({ type: [PreviewLineView] })
  lineItems: PreviewLineView[];
  @MoneyView()
  subtotal: string;
  @MoneyView()
  discount: string;
  @MoneyView()
  tax: string;
  @MoneyView()
  total: string;
  @TimeView()
  periodStart: string;
  @TimeView()
  periodEnd: string;
}

/** `POST .../subscription/preview`: the charge now and at the next renewal. */
export class SubscriptionPreviewView {
  /** ISO 4217. */
  currency: string;
  current: PreviewPeriodView;
  next: PreviewPeriodView;
}
