import { ApiProperty } from '@nestjs/swagger';
import { MoneyView, TimeView } from '../view-fields';

/** A credit or charge on a subscription's balance. */
export class AdjustmentView {
  /** The provider's id of the adjustment (null when a repeated request found it made already). */
  id: number | null;
  @ApiProperty({ format: 'uuid' })
  subscription: string;
  @MoneyView()
  amount: string;
  /** ISO 4217. */
  currency: string;
  memo: string;
  @TimeView()
  created: string;
}
