import { toDecimalString } from '../../../libs/cap-math';
import { id, securityRecord, tx } from '../../../test/support/ledger-records';
import type { HoldingRecord, PlanRecord } from '../ledger/incentive-types';
import { replay } from '../ledger/reducer';
import type { LedgerTransaction } from '../ledger/transaction-types';
import {
  activeConvertibles,
  capitalization,
  liveClasses,
  outstandingOptions,
  poolAvailable,
  positionOf,
  sharesByMember,
  vestedOutstanding,
} from './position';

const text = toDecimalString;

const issue = (securityId: string, memberId: string, quantity: string) =>
  tx('TX_STOCK_ISSUANCE', {
    shareholdingId: id(),
    securityId,
    memberId,
    quantity,
    pricePerShare: null,
    issueDate: '2024-01-01',
    legendIds: [],
    consideration: null,
  });

const plan = (securityId: string): PlanRecord => ({
  id: id(),
  name: 'Plan',
  securityId,
  sharesReserved: '1000',
  boardApprovalDate: null,
  stockholderApprovalDate: null,
  defaultCancellationBehavior: 'return_to_pool',
});

const grant = (p: PlanRecord, poolId: string, terms: HoldingRecord['terms'], scheduleId?: string) =>
  tx('TX_EQUITY_COMPENSATION_ISSUANCE', {
    holding: {
      id: id(),
      memberId: 'employee',
      type: 'option_iso',
      planId: p.id,
      poolId,
      securityId: p.securityId,
      vestingScheduleId: scheduleId ?? null,
      terms: { exercisePrice: '0.5', grantDate: '2024-01-01', ...terms },
    },
  });

/**
 * Common (10,000 authorized, 1,000 issued to the founder), Series A preferred converting 2 for 1
 * (100 issued to the investor), a plan with a 600-share pool, a yearly 4-year schedule.
 */
function table() {
  const common = securityRecord({ authorizedShares: '10000', seniority: 0 });
  const preferred = securityRecord({
    name: 'Series A',
    classType: 'preferred',
    idPrefix: 'PA-',
    seniority: 1,
    conversionRatio: '2',
  });
  const p = plan(common.id);
  const poolId = id();
  const scheduleId = id();
  const log: LedgerTransaction[] = [
    tx('STOCK_CLASS_CREATED', { security: common }),
    tx('STOCK_CLASS_CREATED', { security: preferred }),
    issue(common.id, 'founder', '1000'),
    issue(preferred.id, 'investor', '100'),
    tx('STOCK_PLAN_CREATED', { plan: p }),
    tx('STOCK_PLAN_POOL_CREATED', {
      pool: { id: poolId, planId: p.id, name: 'Pool', sharesReserved: '600' },
    }),
    tx('VESTING_TERMS_CREATED', {
      vestingSchedule: {
        id: scheduleId,
        name: '4 years',
        planId: null,
        version: 1,
        previousVersionId: null,
        totalPeriods: 4,
        periodLength: 1,
        periodType: 'years',
        cliffPeriods: 0,
        allocationType: 'CUMULATIVE_ROUNDING',
        vestingDayOfMonth: null,
        acceleration: null,
      },
    }),
  ];
  return { common, preferred, p, poolId, scheduleId, log };
}

describe('the position', () => {
  it('classes most senior first; shares by member and class; the capitalization with preferred as converted', () => {
    const { common, preferred, log } = table();
    const position = positionOf(replay(log), '2024-06-01');
    expect(liveClasses(position).map((c) => c.id)).toEqual([preferred.id, common.id]);
    expect(text(sharesByMember(position).get('founder')!)).toBe('1000');
    expect(text(position.shares.get('investor')!.get(preferred.id)!)).toBe('100');
    // Shareholdings are summed, not kept.
    expect(position.state.shareholdings.size).toBe(0);
    const c = capitalization(position, '2024-06-02');
    // 1,000 common + 100 preferred × 2.
    expect(text(c.issuedShares)).toBe('1200');
    expect(text(c.unissuedOptionPool)).toBe('600');
    expect(text(c.outstandingOptions)).toBe('0');
  });

  it('options outstanding until their expiration date; a financing the day after no longer counts them', () => {
    const { p, poolId, log } = table();
    const expiring = grant(p, poolId, { quantity: '100', expirationDate: '2024-06-01' });
    const position = positionOf(replay([...log, expiring]), '2024-06-01');
    expect(outstandingOptions(position).map((o) => text(o.outstanding))).toEqual(['100']);
    expect(text(capitalization(position, '2024-06-01').outstandingOptions)).toBe('100');
    expect(text(capitalization(position, '2024-06-02').outstandingOptions)).toBe('0');
    expect(text(poolAvailable(position))).toBe('500');
  });

  it('vested and outstanding: vested by the schedule, less what was exercised, within what is left', () => {
    const { p, poolId, scheduleId, log } = table();
    const g = grant(p, poolId, { quantity: '400' }, scheduleId);
    const holdingId = (g.payload as { holding: HoldingRecord }).holding.id;
    const exercised = tx(
      'TX_EQUITY_COMPENSATION_EXERCISE',
      {
        holdingId,
        requestId: null,
        quantity: '150',
        date: '2026-02-01',
        paymentMethod: 'cash',
        shareholdingId: id(),
        legendIds: [],
      },
      '2026-02-01',
    );
    const state = replay([...log, g, exercised]);
    const h = state.holdings.get(holdingId)!;
    // Two of four years vested: 200, 150 of them exercised.
    expect(text(vestedOutstanding(positionOf(state, '2026-02-01'), h))).toBe('50');
    // One year: 100 vested, fewer than the 150 exercised: nothing vested is left.
    expect(
      text(vestedOutstanding(positionOf(replay([...log, g, exercised]), '2025-01-01'), h)),
    ).toBe('0');
    // All vested: what is left, 250.
    expect(
      text(vestedOutstanding(positionOf(replay([...log, g, exercised]), '2030-01-01'), h)),
    ).toBe('250');
  });

  it('convertibles: the active notes and SAFEs', () => {
    const { log } = table();
    const safe = tx('TX_CONVERTIBLE_ISSUANCE', {
      holding: {
        id: id(),
        memberId: 'angel',
        type: 'safe',
        planId: null,
        poolId: null,
        securityId: null,
        vestingScheduleId: null,
        terms: { amount: '50000', safeType: 'post_money', issueDate: '2024-01-01' },
      },
    });
    const position = positionOf(replay([...log, safe]), '2024-06-01');
    expect(activeConvertibles(position).map((h) => h.memberId)).toEqual(['angel']);
  });
});
