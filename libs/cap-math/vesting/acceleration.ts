import Decimal from 'decimal.js';
import { D, DecimalInput, floorToWhole } from '../decimal';
import { compareDates, IsoDate, parseDate } from '../dates';
import { CapMathError } from '../errors';
import { inRange } from '../validate';
import { FRACTIONAL_DECIMALS } from './allocation';
import { AccelerationTrigger } from './schedule';
import { VestingEvent } from './vesting-events';

export interface AccelerationOptions {
  /** Percent (0..100) of the then-unvested quantity that vests on the trigger date. */
  percent: DecimalInput;
  /** The grant allows fractional shares (FRACTIONAL allocation); default whole shares. */
  fractional?: boolean;
}

/**
 * Acceleration on `triggerDate`, by this rule:
 * 1. Events on or before the trigger date are kept as they are (already vested).
 * 2. `percent` of the unvested quantity (everything dated after the trigger) vests on the
 *    trigger date, rounded down to whole shares (10 decimals for fractional grants), since
 *    rounding up would vest a share the terms did not grant.
 * 3. The rest stays on the original later dates, every later tranche scaled down by the same
 *    factor: each later cumulative amount is multiplied by rest / unvested and rounded down,
 *    and the last one is exactly the rest. The total granted is unchanged, the schedule keeps
 *    its shape, and tranches that shrink to nothing are dropped.
 */
export function accelerate(
  events: readonly VestingEvent[],
  options: AccelerationOptions,
  triggerDate: IsoDate,
): VestingEvent[] {
  parseDate(triggerDate, 'triggerDate');
  const percent = inRange('percent', options.percent, 0, 100);
  const roundDown = options.fractional
    ? (x: Decimal) => x.toDecimalPlaces(FRACTIONAL_DECIMALS, Decimal.ROUND_DOWN)
    : floorToWhole;

  const vested = events.filter((e) => e.date <= triggerDate);
  const later = events.filter((e) => e.date > triggerDate);
  const unvested = later.reduce((acc, e) => acc.plus(e.amount), new D(0));
  const accelerated = roundDown(unvested.times(percent).div(100));
  if (accelerated.isZero()) {
    return events.map((e) => ({ ...e }));
  }
  const rest = unvested.minus(accelerated);

  const amounts: { date: IsoDate; amount: Decimal }[] = vested.map((e) => ({
    date: e.date,
    amount: e.amount,
  }));
  const last = amounts[amounts.length - 1];
  if (last && last.date === triggerDate) {
    last.amount = last.amount.plus(accelerated);
  } else {
    amounts.push({ date: triggerDate, amount: accelerated });
  }

  let originalCumulative = new D(0);
  let previousScaled = new D(0);
  later.forEach((event, i) => {
    originalCumulative = originalCumulative.plus(event.amount);
    const scaled =
      i === later.length - 1 ? rest : roundDown(originalCumulative.times(rest).div(unvested));
    amounts.push({ date: event.date, amount: scaled.minus(previousScaled) });
    previousScaled = scaled;
  });

  let cumulative = new D(0);
  return amounts
    .filter((a) => !a.amount.isZero())
    .map((a) => {
      cumulative = cumulative.plus(a.amount);
      return { date: a.date, amount: a.amount, cumulative };
    });
}

export interface AccelerationCircumstances {
  trigger: AccelerationTrigger;
  changeOfControlDate?: IsoDate | null;
  terminationDate?: IsoDate | null;
}

/**
 * The date acceleration takes effect, or null when it has not been triggered. Single
 * trigger: the change of control itself. Double trigger: the termination, and only when it
 * follows (or coincides with) a change of control; any time window after the change of
 * control that the grant imposes is for the caller to check.
 */
export function effectiveAccelerationDate(
  circumstances: AccelerationCircumstances,
): IsoDate | null {
  const { trigger, changeOfControlDate, terminationDate } = circumstances;
  if (changeOfControlDate) parseDate(changeOfControlDate, 'changeOfControlDate');
  if (terminationDate) parseDate(terminationDate, 'terminationDate');
  if (trigger === 'single') {
    return changeOfControlDate ?? null;
  }
  if (trigger === 'double') {
    if (!changeOfControlDate || !terminationDate) return null;
    return compareDates(terminationDate, changeOfControlDate) >= 0 ? terminationDate : null;
  }
  throw new CapMathError(`Unknown acceleration trigger "${String(trigger)}"`, 'trigger');
}
