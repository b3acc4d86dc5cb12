import { documentedHolding } from './definition';
import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../payload-fields';
import { ConversionRecord } from '../incentive-types';
import { randomUUID } from 'node:crypto';
import { CapMathError, toDecimal } from '../../../../libs/cap-math';
import type { InTransaction } from '../../../database';
import { convert, conversionRecord } from '../../holdings/conversion-math';
import type { Position } from '../../position/position';
import { fractionalAllowed } from '../../quantities';
import { decimalOrNull } from '../command-values';
import { HoldingState, LedgerRuleError } from '../ledger-state';
import { convertible } from '../incentives/holding-rules';
import { holding } from '../incentives/lookups';
import { CONVERTIBLE_TYPES, holdingLabel } from '../incentive-types';
import {
  addShareholding,
  assertIssuable,
  assertLegends,
  issue,
  positive,
  security,
  ZERO,
} from '../rules';
import type { TransactionDefinition, TransactionFacts } from './definition';
import { convertibleConversionOcf } from './convertible-conversion.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const conversionPayload = Type.Object({
  holdingId: Id(),
  conversion: ConversionRecord,
  legendIds: Type.Array(Id()),
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_CONVERTIBLE_CONVERSION: Static<typeof conversionPayload>;
  }
}

/** The cap table a financing converts on, read in the conversion's transaction (under its locks). */
export interface Financing {
  /** The cap table at the end of the day before the financing. */
  before: Position;
  /** The notes and SAFEs already converted on its date (in the same financing). */
  converted: HoldingState[];
}

/** A conversion as a caller asks for it. */
export interface ConvertInput {
  holdingId: string;
  securityId: string;
  date: string;
  pricePerShare: string;
  preMoneyValuation?: string | null;
  /** The new shareholding's legends (the caller gives the organization's defaults). */
  legendIds: string[];
  /** Reads the financing's cap table (the caller's readers), in the command's transaction. */
  readFinancing(tx: InTransaction, date: string): Promise<Financing>;
  /** What `readFinancing` read (the command's `load`). */
  financing?: Financing;
}

/** What a conversion answers: the note or SAFE, now converted, and the shareholding issued. */
export async function conversionResult(facts: TransactionFacts<'TX_CONVERTIBLE_CONVERSION'>) {
  const { holdingId, conversion } = facts.payload;
  return {
    holding: (await facts.view('holdings', holdingId)) as { id: string; member: string },
    shareholding: (await facts.view('shareholdings', conversion.shareholdingId)) as {
      certificateNumber: string;
    },
  };
}

/** OCF TX_CONVERTIBLE_CONVERSION: a note or SAFE becomes shares of a class; the note is settled. */
export const convertibleConversion: TransactionDefinition<'TX_CONVERTIBLE_CONVERSION'> = {
  payload: conversionPayload,
  definesRecord: false,
  ocf: convertibleConversionOcf,
  refers: { createdShareholding: ['conversion', 'shareholdingId'] },
  scope: (p) => ({
    holdings: [p.holdingId],
    securities: [p.conversion.securityId],
    legends: p.legendIds,
  }),
  command: {
    scope: (input: ConvertInput) => ({
      holdings: [input.holdingId],
      securities: [input.securityId],
      legends: input.legendIds,
    }),
    async load(input: ConvertInput, { tx, state }) {
      // Refused before the cap table is read for it.
      convertible(state, input.holdingId, input.securityId, input.date);
      return { ...input, financing: await input.readFinancing(tx, input.date) };
    },
    prepare(state, input: ConvertInput, context) {
      // The numbers are computed on a convertible only.
      const { h, s } = convertible(state, input.holdingId, input.securityId, input.date);
      const { before, converted } = input.financing!;
      const sameRound = converted.filter(
        (x) => x.id !== h.id && (x.type === 'convertible_note' || x.terms.safeType === 'pre_money'),
      );
      const pricePerShare = decimalOrNull(input.pricePerShare)!;
      let result;
      try {
        result = convert({
          holding: h,
          date: input.date,
          pricePerShare,
          before,
          otherConvertingShares: sameRound.reduce(
            (sum, x) => sum.plus(x.conversion?.shares ?? 0),
            toDecimal(0),
          ),
          fractional: fractionalAllowed(context.organization),
        });
      } catch (err) {
        // The library's refusals (a cap the SAFEs would own all the company at ...).
        if (err instanceof CapMathError) throw new LedgerRuleError('invalid', err.message);
        throw err;
      }
      return {
        effectiveDate: input.date,
        payload: {
          holdingId: h.id,
          conversion: conversionRecord(result, {
            date: input.date,
            shareholdingId: randomUUID(),
            securityId: s.id,
            roundPricePerShare: pricePerShare,
            preMoneyValuation: decimalOrNull(input.preMoneyValuation),
          }),
          legendIds: input.legendIds,
        },
      };
    },
  },
  event: {
    type: 'holding.converted',
    public: true,
    audience: 'canViewHolding',
    object: documentedHolding,
    async describe(facts) {
      const { holding, shareholding } = await conversionResult(facts);
      const { conversion } = facts.payload;
      const s = facts.state.securities.get(conversion.securityId)!;
      return {
        object: holding,
        subjects: [holding.member],
        description:
          `${holdingLabel(facts.state.holdings.get(holding.id)!.type)} ${holding.id}: ${conversion.conversionAmount} converted on ${conversion.date} into ` +
          `${conversion.shares} shares of ${s.name} (${shareholding.certificateNumber}) at ` +
          `${conversion.conversionPrice} (${conversion.method})`,
      };
    },
  },
  validate(state, { holdingId, conversion, legendIds }) {
    const { s } = convertible(state, holdingId, conversion.securityId, conversion.date);
    assertLegends(state, legendIds);
    assertIssuable(s, positive(conversion.shares, 'shares'));
  },
  apply(state, { holdingId, conversion, legendIds }, strict) {
    const h = holding(state, holdingId);
    if (!CONVERTIBLE_TYPES.has(h.type)) {
      throw new LedgerRuleError('invalid', `a ${h.type} does not convert`);
    }
    const s = security(state, conversion.securityId);
    const shares = positive(conversion.shares, 'shares');
    issue(state, s, shares, strict);
    addShareholding(state, s, {
      id: conversion.shareholdingId,
      memberId: h.memberId,
      securityId: s.id,
      quantity: shares,
      pricePerShare: conversion.conversionPrice,
      issueDate: conversion.date,
      legendIds,
      consideration: `conversion of ${h.type === 'safe' ? 'a SAFE' : 'a convertible note'}`,
    });
    if (h.principalOutstanding) {
      h.principalOutstanding = ZERO;
      h.accruedUnpaid = ZERO;
      h.accruedThrough = conversion.date;
    }
    h.conversion = conversion;
    h.status = 'converted';
    state.put('holdings', h);
  },
};
