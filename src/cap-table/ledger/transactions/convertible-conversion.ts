import { LedgerRuleError } from '../ledger-state';
import { assertActiveHolding } from '../incentives/holding-rules';
import { holding } from '../incentives/lookups';
import { CONVERTIBLE_TYPES } from '../incentive-types';
import {
  addShareholding,
  assertIssuable,
  assertLegends,
  assertLiveClass,
  issue,
  positive,
  security,
  ZERO,
} from '../rules';
import type { TransactionDefinition } from './definition';
import { convertibleConversionOcf } from './convertible-conversion.ocf';

/** OCF TX_CONVERTIBLE_CONVERSION: a note or SAFE becomes shares of a class; the note is settled. */
export const convertibleConversion: TransactionDefinition<'TX_CONVERTIBLE_CONVERSION'> = {
  definesRecord: false,
  ocf: convertibleConversionOcf,
  refers: { createdShareholding: ['conversion', 'shareholdingId'] },
  scope: (p) => ({
    holdings: [p.holdingId],
    securities: [p.conversion.securityId],
    legends: p.legendIds,
  }),
  validate(state, { holdingId, conversion, legendIds }) {
    const h = holding(state, holdingId);
    assertActiveHolding(h);
    if (!CONVERTIBLE_TYPES.has(h.type)) {
      throw new LedgerRuleError('invalid', `a ${h.type} does not convert`);
    }
    const s = security(state, conversion.securityId);
    assertLiveClass(s);
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
