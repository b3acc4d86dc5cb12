import type Decimal from 'decimal.js';
import type { HoldingRecord } from '../incentive-types';
import { positive, ZERO } from '../rules';
import { HoldingState, LedgerRuleError, LedgerState } from '../ledger-state';

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

export function assertActiveHolding(h: HoldingState) {
  if (h.status !== 'active') {
    throw new LedgerRuleError('conflict', `the ${h.type} is ${h.status}`);
  }
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
