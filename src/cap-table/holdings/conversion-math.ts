import Decimal from 'decimal.js';
import {
  convertInFinancing,
  toDecimalString,
  type FinancingConversion,
} from '../../../libs/cap-math';
import type { ConversionRecord } from '../ledger/incentive-types';
import type { HoldingState } from '../ledger/ledger-state';
import { convertibleInstrument } from '../position/convertibles';
import { activeConvertibles, capitalization, type Position } from '../position/position';

/** The numbers of a conversion: libs/cap-math's `convertInFinancing` on the cap table just before the financing. */

export interface ConversionInput {
  holding: HoldingState;
  date: string;
  pricePerShare: string;
  /** The cap table at the end of the day before the financing. */
  before: Position;
  /** Shares of notes and pre-money SAFEs already converted in this financing. */
  otherConvertingShares: Decimal;
  /** Keep fractional shares (an LLC's units) instead of rounding down. */
  fractional: boolean;
}

/**
 * The holding's conversion, on the capitalization before the financing (preferred as converted
 * to common). A post-money SAFE converts together with every other post-money SAFE outstanding
 * before the financing (they all convert in it, and each one's Company Capitalization counts all
 * of their shares): converting them one by one on the same date gives each its share of the
 * joint solution. The dashboard's preview makes the same call.
 */
export function convert(input: ConversionInput): FinancingConversion {
  const { holding: h } = input;
  const own = convertibleInstrument(h);
  const others =
    own.kind === 'post_money_safe'
      ? activeConvertibles(input.before)
          .filter((x) => x.id !== h.id)
          .map(convertibleInstrument)
          .filter((x) => x.kind === 'post_money_safe')
      : [];
  const [result] = convertInFinancing({
    capitalization: {
      ...capitalization(input.before, input.date),
      otherConvertingShares: input.otherConvertingShares,
    },
    date: input.date,
    standardPreferredPrice: input.pricePerShare,
    convertibles: [own, ...others],
    fractional: input.fractional,
  });
  return result;
}

/** The ledger's scale (numeric(38, 10)): prices and amounts are recorded to 10 places. */
const scaled = (d: Decimal) => toDecimalString(d.toDecimalPlaces(10, Decimal.ROUND_HALF_UP));

export function conversionRecord(
  result: FinancingConversion,
  fields: {
    date: string;
    shareholdingId: string;
    securityId: string;
    roundPricePerShare: string;
    preMoneyValuation: string | null;
  },
): ConversionRecord {
  return {
    date: fields.date,
    shareholdingId: fields.shareholdingId,
    securityId: fields.securityId,
    // Whole shares already, or an LLC's units cut (down) to the ledger's 10 places.
    shares: toDecimalString(result.shares.toDecimalPlaces(10, Decimal.ROUND_DOWN)),
    conversionPrice: scaled(result.conversionPrice),
    method: result.method,
    conversionAmount: scaled(result.conversionAmount),
    roundPricePerShare: fields.roundPricePerShare,
    preMoneyValuation: fields.preMoneyValuation,
  };
}
