import { toDecimal, toDecimalString } from '../../libs/cap-math';
import type {
  HoldingRecord,
  PlanRecord,
  VestingScheduleRecord,
} from '../../src/cap-table/ledger/incentive-types';
import { LedgerRuleError } from '../../src/cap-table/ledger/ledger-state';
import { id, securityRecord, tx } from './ledger-records';

/** Plans, grants and their exercises for the incentive rules' unit tests (no database). */

export const planRecord = (
  securityId: string,
  sharesReserved: string,
  retire = false,
): PlanRecord => ({
  id: id(),
  name: 'Plan',
  securityId,
  sharesReserved,
  boardApprovalDate: null,
  stockholderApprovalDate: null,
  defaultCancellationBehavior: retire ? 'retire' : 'return_to_pool',
});

/** Four years monthly after a one-year cliff. */
export const standardSchedule = (): VestingScheduleRecord => ({
  id: id(),
  name: '4y/1y',
  planId: null,
  version: 1,
  previousVersionId: null,
  totalPeriods: 48,
  periodLength: 1,
  periodType: 'months',
  cliffPeriods: 12,
  allocationType: 'CUMULATIVE_ROUNDING',
  vestingDayOfMonth: null,
  acceleration: null,
});

/** An ISO of the plan's pool, granted on 2023-01-01 at 0.5. */
export const grantRecord = (
  p: PlanRecord,
  poolId: string,
  quantity: string,
  extra: Partial<HoldingRecord> & { terms?: HoldingRecord['terms'] } = {},
): HoldingRecord => ({
  id: id(),
  memberId: 'm1',
  type: 'option_iso',
  planId: p.id,
  poolId,
  securityId: p.securityId,
  vestingScheduleId: null,
  ...extra,
  terms: { quantity, exercisePrice: '0.5', grantDate: '2023-01-01', ...extra.terms },
});

/** A class of 10,000 with a plan reserving 2,000 in one pool. */
export function planWithPool(retire = false) {
  const s = securityRecord({ authorizedShares: '10000' });
  const p = planRecord(s.id, '2000', retire);
  const poolId = id();
  const log = [
    tx('STOCK_CLASS_CREATED', { security: s }),
    tx('STOCK_PLAN_CREATED', { plan: p }),
    tx('STOCK_PLAN_POOL_CREATED', {
      pool: { id: poolId, planId: p.id, name: 'Pool', sharesReserved: '2000' },
    }),
  ];
  return { s, p, poolId, log };
}

export const exerciseTx = (holdingId: string, quantity: string, date = '2025-01-01') =>
  tx(
    'TX_EQUITY_COMPENSATION_EXERCISE',
    {
      holdingId,
      requestId: null,
      quantity,
      date,
      paymentMethod: 'cash',
      shareholdingId: id(),
      legendIds: [],
    },
    date,
  );

/** The rule `f` breaks, if any. */
export function brokenRule(f: () => unknown): string | undefined {
  try {
    f();
  } catch (err) {
    if (err instanceof LedgerRuleError) return err.rule;
    throw err;
  }
  return undefined;
}

/** A decimal as the API writes it. */
export const decimalText = (d: { toFixed(): string } | null | undefined) =>
  d ? toDecimalString(toDecimal(d.toFixed())) : d;
