import Decimal from 'decimal.js';
import { D, DecimalInput } from './decimal';
import { compareDates, IsoDate, parseDate } from './dates';
import { DayCountConvention, yearFraction } from './day-count';
import { CapMathError } from './errors';
import { integerAtLeast, nonNegative } from './validate';

export type InterestType = 'simple' | 'compound';

export interface AccruedInterestInput {
  principal: DecimalInput;
  /** Annual rate as a fraction: "0.08" for 8%. */
  annualRate: DecimalInput;
  interestType: InterestType;
  dayCount: DayCountConvention;
  startDate: IsoDate;
  endDate: IsoDate;
  /** Compounding periods per year for compound interest (1 = annual, 12 = monthly). */
  compoundingPeriodsPerYear?: number;
}

/**
 * Interest accrued from startDate to endDate (the start day accrues, the end day does not),
 * at full precision: rounding to cents is the caller's decision, made once on the final
 * figure. Simple: P·r·t. Compound: P·((1 + r/m)^(m·t) − 1), with a fractional exponent for a
 * part period, where t is the year fraction of the day count convention.
 */
export function accruedInterest(input: AccruedInterestInput): Decimal {
  const principal = nonNegative('principal', input.principal);
  const rate = nonNegative('annualRate', input.annualRate);
  parseDate(input.endDate, 'endDate');
  parseDate(input.startDate, 'startDate');
  if (compareDates(input.endDate, input.startDate) < 0) {
    throw new CapMathError(
      `endDate ${input.endDate} is before startDate ${input.startDate}`,
      'endDate',
    );
  }
  const years = yearFraction(input.startDate, input.endDate, input.dayCount);
  switch (input.interestType) {
    case 'simple':
      return principal.times(rate).times(years);
    case 'compound': {
      const periods = integerAtLeast(
        'compoundingPeriodsPerYear',
        input.compoundingPeriodsPerYear ?? 1,
        1,
      );
      const growth = new D(1).plus(rate.div(periods)).pow(years.times(periods));
      return principal.times(growth.minus(1));
    }
    default:
      throw new CapMathError(
        `Unknown interestType "${String(input.interestType)}"`,
        'interestType',
      );
  }
}
