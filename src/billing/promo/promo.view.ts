import { ApiPropertyOptional } from '@nestjs/swagger';
import { MoneyView, TimeView } from '../view-fields';

/**
 * Whether a promotion code may be used: `{valid: true, name, percentOff | amountOff, currency,
 * recurring, durationPeriods, endsAt}`, or `{valid: false, reason}`.
 */
export class PromoView {
  valid: boolean;
  /** `unknown` or `expired` (when not valid). */
  reason?: string;
  name?: string;
  /** A percentage off, e.g. `"20"`. */
  @ApiPropertyOptional({ type: String, example: '20' })
  percentOff?: string;
  /** An amount off, in `currency`. */
  @MoneyView({ optional: true })
  amountOff?: string;
  currency?: string;
  /** Applies at every renewal, for `durationPeriods` periods (null: for ever). */
  recurring?: boolean;
  durationPeriods?: number | null;
  /** After it the code is refused; null: no end. */
  @TimeView({ nullable: true, optional: true })
  endsAt?: string | null;
}
