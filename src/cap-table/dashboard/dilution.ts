import type Decimal from 'decimal.js';
import { convertInFinancing, toDecimal } from '../../../libs/cap-math';
import { convertibleInstrument } from '../position/convertibles';
import { activeConvertibles, capitalization, type Position } from '../position/position';

const ZERO = toDecimal(0);

/**
 * The shares the active notes and SAFEs would become in a financing on the position's date at
 * `price`, by holder: the conversion a real one on that day would make (libs/cap-math's
 * `convertInFinancing` on the same capitalization, preferred counted as converted to common), so
 * the preview and the shares a conversion then issues agree. Without a price, or with nothing
 * to convert on, nothing converts.
 */
export function asConvertedByHolder(
  position: Position,
  price: string | null,
  fractional: boolean,
): Map<string, Decimal> {
  const result = new Map<string, Decimal>();
  const convertibles = activeConvertibles(position);
  if (!price || !toDecimal(price).gt(0) || !convertibles.length) return result;
  const base = capitalization(position, position.asOf);
  if (!base.issuedShares.plus(base.outstandingOptions).plus(base.unissuedOptionPool).gt(0)) {
    return result;
  }
  const instruments = convertibles.map((h) => {
    const instrument = convertibleInstrument(h);
    // Interest settled after the date (a note's issue date corrected past it): none accrued
    // since, as interestOwed reads it leniently.
    if (instrument.kind === 'note' && instrument.interestFrom > position.asOf) {
      instrument.interestFrom = position.asOf;
    }
    return instrument;
  });
  const conversions = convertInFinancing({
    capitalization: base,
    date: position.asOf,
    standardPreferredPrice: price,
    convertibles: instruments,
    fractional,
  });
  conversions.forEach((c, i) => {
    const member = convertibles[i].memberId;
    result.set(member, (result.get(member) ?? ZERO).plus(c.shares));
  });
  return result;
}
