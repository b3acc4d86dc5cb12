import type Decimal from 'decimal.js';
import { compareDates, toDecimalString } from '../../../../libs/cap-math';
import { EXERCISABLE_TYPES } from '../incentive-types';
import type { ExercisePayload } from '../incentive-types';
import {
  addShareholding,
  assertIssuable,
  assertLegends,
  found,
  issue,
  positive,
  security,
} from '../rules';
import { HoldingState, LedgerRuleError, LedgerState } from '../ledger-state';
import { exercisable, outstanding } from './holding-figures';
import { assertActiveHolding } from './holding-rules';
import { holding, plan, pool } from './lookups';

/**
 * Exercising a grant turns shares its plan reserved into issued ones; a warrant issues from the
 * class's unissued balance like any issuance.
 */

/** A grant or warrant may be exercised as `x` says: vested, in time, its request pending. */
export function validateExercise(state: LedgerState, x: ExercisePayload) {
  const h = holding(state, x.holdingId);
  const quantity = positive(x.quantity, 'quantity');
  assertExercisable(state, h, quantity, x.date);
  if (x.requestId) {
    const r = found(state.requests, x.requestId, 'exercise request');
    if (r.status !== 'pending' || r.holdingId !== h.id) {
      throw new LedgerRuleError('conflict', `the exercise request is ${r.status}`);
    }
  }
  const s = security(state, h.securityId ?? '');
  assertLegends(state, x.legendIds);
  if (!h.poolId) assertIssuable(s, quantity);
}

export function exercise(state: LedgerState, x: ExercisePayload, strict: boolean) {
  const h = holding(state, x.holdingId);
  const quantity = positive(x.quantity, 'quantity');
  if (x.requestId) {
    const r = found(state.requests, x.requestId, 'exercise request');
    r.status = 'approved';
    state.put('requests', r);
  }
  const s = security(state, h.securityId ?? '');
  if (h.poolId) {
    // A plan's grant becomes shares out of the plan's reservation.
    const po = pool(state, h.poolId);
    const pl = plan(state, po.planId);
    po.exercised = po.exercised.plus(quantity);
    pl.exercised = pl.exercised.plus(quantity);
    s.reserved = s.reserved.minus(quantity);
    s.issued = s.issued.plus(quantity);
    state.put('pools', po);
    state.put('plans', pl);
    state.put('securities', s);
  } else {
    issue(state, s, quantity, strict);
  }
  addShareholding(state, s, {
    id: x.shareholdingId,
    memberId: h.memberId,
    securityId: s.id,
    quantity,
    pricePerShare: h.terms.exercisePrice ?? null,
    issueDate: x.date,
    legendIds: x.legendIds,
    consideration: x.paymentMethod ? `exercise (${x.paymentMethod})` : 'exercise',
  });
  h.exercised = h.exercised.plus(quantity);
  if (outstanding(h).isZero()) {
    h.status = 'exercised';
    closePendingRequests(state, h.id);
  }
  state.put('holdings', h);
}

/** A grant that can no longer be exercised leaves no request pending. */
export function closePendingRequests(state: LedgerState, holdingId: string) {
  for (const r of state.requests.values()) {
    if (r.holdingId === holdingId && r.status === 'pending') {
      r.status = 'cancelled';
      state.put('requests', r);
    }
  }
}

export function assertExercisable(
  state: LedgerState,
  h: HoldingState,
  quantity: Decimal,
  date: string,
) {
  if (!EXERCISABLE_TYPES.has(h.type)) {
    throw new LedgerRuleError('invalid', `a ${h.type} is not exercised`);
  }
  assertActiveHolding(h);
  const { grantDate, expirationDate } = h.terms;
  if (grantDate && compareDates(date, grantDate) < 0) {
    throw new LedgerRuleError('invalid', `date must not be before the grant date ${grantDate}`);
  }
  if (expirationDate && compareDates(date, expirationDate) > 0) {
    throw new LedgerRuleError('conflict', `the ${h.type} expired on ${expirationDate}`);
  }
  const can = exercisable(state, h, date);
  if (quantity.gt(can)) {
    throw new LedgerRuleError(
      'insufficientShares',
      `${toDecimalString(can)} can be exercised on ${date}, less than ${toDecimalString(quantity)}`,
    );
  }
}
