import type Decimal from 'decimal.js';
import { CapMathError, compareDates, vestedOn } from '../../../../libs/cap-math';
import {
  CONVERTIBLE_TYPES,
  holdingLabel,
  type HoldingRecord,
  type HoldingTerms,
} from '../incentive-types';
import { assertLiveClass, positive, security, ZERO } from '../rules';
import { HoldingState, LedgerRuleError, LedgerState } from '../ledger-state';
import { toVestingSchedule } from './holding-figures';
import { holding } from './lookups';

export function addHolding(
  state: LedgerState,
  record: HoldingRecord,
  quantity: Decimal | null,
  strict: boolean,
) {
  if (strict && state.holdings.has(record.id)) {
    throw new LedgerRuleError('conflict', `holding ${record.id} exists`);
  }
  const isNote = record.type === 'convertible_note';
  state.put('holdings', {
    ...record,
    status: 'active',
    quantity,
    exercised: ZERO,
    cancelled: ZERO,
    principalOutstanding: isNote ? positive(record.terms.principal ?? '', 'principal') : null,
    accruedUnpaid: ZERO,
    accruedThrough: isNote ? (record.terms.issueDate ?? null) : null,
    interestPaid: ZERO,
    conversion: null,
  });
}

/** A cancelled, repaid, converted or exercised holding is final. */
export function assertActiveHolding(h: HoldingState) {
  if (h.status !== 'active') {
    throw new LedgerRuleError('conflict', `the ${holdingLabel(h.type)} is ${h.status}`);
  }
}

/**
 * A grant's vesting schedule is one of the organization's (a plan's own only for that plan) that
 * can allocate its quantity (whole-share allocation types need a whole quantity). Which version
 * it may take is `assertSchedule`'s: a grant keeps the version it was made with.
 */
export function assertGrantSchedule(
  state: LedgerState,
  scheduleId: string | null,
  planId: string | null,
  terms: HoldingTerms,
) {
  if (scheduleId === null) return;
  const v = state.schedules.get(scheduleId);
  if (!v || v.deleted) throw new LedgerRuleError('notFound', 'no such vesting schedule');
  if (v.planId && v.planId !== planId) {
    throw new LedgerRuleError(
      'invalid',
      'vestingSchedule is a schedule of another plan',
      'vestingSchedule',
    );
  }
  if (terms.quantity === undefined) return;
  try {
    // The checks the schedule's expansion makes, without building its events.
    const start = terms.vestingStartDate ?? terms.grantDate!;
    vestedOn(
      { schedule: toVestingSchedule(v), quantity: terms.quantity, vestingStartDate: start },
      start,
    );
  } catch (err) {
    if (!(err instanceof CapMathError)) throw err;
    throw new LedgerRuleError(
      'invalid',
      `vestingSchedule ${v.name}: ${err.message}`,
      grantField(err.field, terms),
    );
  }
}

/**
 * The grant's field a cap-math error about its vesting is about: its quantity, its vesting start
 * (the grant date when it has none), else the schedule's terms.
 */
function grantField(field: string, terms: HoldingTerms): string {
  if (field === 'quantity') return 'quantity';
  if (field === 'vestingStartDate') {
    return terms.vestingStartDate ? 'vestingStartDate' : 'grantDate';
  }
  return 'vestingSchedule';
}

/** Terms a note's repayments were computed with. */
const INTEREST_TERMS: (keyof HoldingTerms)[] = [
  'principal',
  'interestRate',
  'interestType',
  'dayCount',
  'issueDate',
];

/** Once a note has repayments, the terms its interest was computed with are fixed. */
export function assertInterestTermsKept(h: HoldingState, terms: HoldingTerms) {
  if (h.type !== 'convertible_note' || !hasRepayments(h)) return;
  const fixed = INTEREST_TERMS.filter(
    (k) => k in terms && JSON.stringify(terms[k] ?? null) !== JSON.stringify(h.terms[k] ?? null),
  );
  if (fixed.length) {
    throw new LedgerRuleError(
      'conflict',
      `the ${fixed.join(', ')} of a note with repayments cannot change (its interest was computed with them)`,
    );
  }
}

/** A note whose interest was paid or principal repaid (or accrual moved past its issue date). */
const hasRepayments = (h: HoldingState) =>
  h.interestPaid.gt(0) ||
  !h.principalOutstanding?.eq(h.terms.principal ?? 0) ||
  (h.accruedThrough !== null &&
    h.terms.issueDate !== undefined &&
    compareDates(h.accruedThrough, h.terms.issueDate) !== 0);

/** Only notes are repaid, while active. */
export function repayableNote(state: LedgerState, holdingId: string): HoldingState {
  const h = holding(state, holdingId);
  if (h.type !== 'convertible_note') {
    throw new LedgerRuleError(
      'invalid',
      `only convertible notes are repaid, not a ${holdingLabel(h.type)}`,
    );
  }
  assertActiveHolding(h);
  return h;
}

/**
 * A note or SAFE converts, while active, into a live class on a date not before its issue date.
 * Answers the holding and the class.
 */
export function convertible(
  state: LedgerState,
  holdingId: string,
  securityId: string,
  date: string,
) {
  const h = holding(state, holdingId);
  if (!CONVERTIBLE_TYPES.has(h.type)) {
    throw new LedgerRuleError(
      'invalid',
      `only convertible notes and SAFEs convert, not a ${holdingLabel(h.type)}`,
    );
  }
  assertActiveHolding(h);
  const s = security(state, securityId);
  assertLiveClass(s);
  const issued = h.terms.issueDate;
  if (issued && compareDates(date, issued) < 0) {
    throw new LedgerRuleError(
      'invalid',
      `date must not be before the issue date ${issued}`,
      'date',
    );
  }
  return { h, s };
}

/** A grant given (or moved to) vesting terms takes their latest version. */
export function assertSchedule(state: LedgerState, id: string | null) {
  if (id === null) return;
  const v = state.schedules.get(id);
  if (!v || v.deleted) throw new LedgerRuleError('notFound', `no vesting schedule ${id}`);
  if (v.supersededById) {
    throw new LedgerRuleError(
      'conflict',
      `vesting schedule ${v.name} version ${v.version} was replaced by ${v.supersededById}: grant with the latest version`,
    );
  }
}
