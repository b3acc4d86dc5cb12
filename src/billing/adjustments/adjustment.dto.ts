import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { DecimalField, Trim } from '../../common';

/** `POST /v1/subscriptions/:subscription/adjustments`. */
export class AdjustmentDto {
  /** Negative: a credit; positive: a charge; never zero. */
  @DecimalField({ money: true, example: '-25.00' })
  amount: string;

  /** Why, as the customer's statement shows it. */
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  memo: string;
}
