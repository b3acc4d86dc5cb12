import Decimal from 'decimal.js';
import { DecimalInput } from './decimal';
import { ownershipPercentages } from './ownership';
import { nonNegative } from './validate';

export interface FullyDilutedInput {
  /** Shares issued and outstanding (common and preferred on an as-issued basis). */
  issued: DecimalInput;
  /** Granted, unexercised options and warrants. */
  outstandingOptions?: DecimalInput;
  /** Reserved in the plan and not yet granted. */
  poolAvailable?: DecimalInput;
  /** Extra common shares that preferred or convertibles would convert into beyond `issued`. */
  asConverted?: DecimalInput;
}

export interface FullyDiluted {
  issued: Decimal;
  outstandingOptions: Decimal;
  poolAvailable: Decimal;
  asConverted: Decimal;
  total: Decimal;
}

/** Fully diluted share count: everything that is or could become a common share. */
export function fullyDiluted(input: FullyDilutedInput): FullyDiluted {
  const issued = nonNegative('issued', input.issued);
  const outstandingOptions = nonNegative('outstandingOptions', input.outstandingOptions ?? 0);
  const poolAvailable = nonNegative('poolAvailable', input.poolAvailable ?? 0);
  const asConverted = nonNegative('asConverted', input.asConverted ?? 0);
  return {
    issued,
    outstandingOptions,
    poolAvailable,
    asConverted,
    total: issued.plus(outstandingOptions).plus(poolAvailable).plus(asConverted),
  };
}

export interface HolderPosition {
  key: string;
  issued?: DecimalInput;
  options?: DecimalInput;
  asConverted?: DecimalInput;
}

export interface HolderFullyDiluted {
  key: string;
  shares: Decimal;
  percent: Decimal;
}

/**
 * Per-holder fully diluted shares and percentages. The unallocated pool is a row of its own
 * (under `poolKey`) when it is not zero, so the percentages describe the whole company.
 */
export function fullyDilutedByHolder(
  holders: readonly HolderPosition[],
  poolAvailable: DecimalInput = 0,
  options: { decimals?: number; poolKey?: string } = {},
): HolderFullyDiluted[] {
  const poolKey = options.poolKey ?? 'Unallocated pool';
  const pool = nonNegative('poolAvailable', poolAvailable);
  const rows = holders.map((h) => ({
    key: h.key,
    shares: nonNegative(`issued of "${h.key}"`, h.issued ?? 0)
      .plus(nonNegative(`options of "${h.key}"`, h.options ?? 0))
      .plus(nonNegative(`asConverted of "${h.key}"`, h.asConverted ?? 0)),
  }));
  if (!pool.isZero()) {
    rows.push({ key: poolKey, shares: pool });
  }
  const percents = ownershipPercentages(rows, options.decimals ?? 4);
  return rows.map((r, i) => ({ key: r.key, shares: r.shares, percent: percents[i].percent }));
}
