import fc from 'fast-check';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { available, exercisable, outstandingReservation } from './incentive-rules';
import type { HoldingRecord, PlanRecord, VestingScheduleRecord } from './incentive-types';
import { LedgerRuleError, LedgerState } from './ledger-state';
import { replay } from './reducer';
import type { LedgerTransaction } from './transaction-types';
import { id, securityRecord, tx } from '../../../test/support/ledger-records';

const security = (authorizedShares = '10000') => securityRecord({ authorizedShares });

const plan = (securityId: string, sharesReserved: string, retire = false): PlanRecord => ({
  id: id(),
  name: 'Plan',
  securityId,
  sharesReserved,
  boardApprovalDate: null,
  stockholderApprovalDate: null,
  defaultCancellationBehavior: retire ? 'retire' : 'return_to_pool',
});

const standard = (): VestingScheduleRecord => ({
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

const grant = (
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
function base(retire = false) {
  const s = security();
  const p = plan(s.id, '2000', retire);
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

const exercise = (holdingId: string, quantity: string, date = '2025-01-01') =>
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

function rule(f: () => unknown): string | undefined {
  try {
    f();
  } catch (err) {
    if (err instanceof LedgerRuleError) return err.rule;
    throw err;
  }
  return undefined;
}

const text = (d: { toFixed(): string } | null | undefined) =>
  d ? toDecimalString(toDecimal(d.toFixed())) : d;

describe('incentive rules', () => {
  it('a plan reserves shares of its class: they cannot be issued, nor authorized away', () => {
    const { s, log } = base();
    const state = replay(log);
    expect(text(state.securities.get(s.id)!.reserved)).toBe('2000');
    const issuance = (quantity: string) =>
      tx('TX_STOCK_ISSUANCE', {
        shareholdingId: id(),
        securityId: s.id,
        memberId: 'm1',
        quantity,
        pricePerShare: null,
        issueDate: '2024-01-01',
        legendIds: [],
        consideration: null,
      });
    expect(rule(() => replay([...log, issuance('8001')]))).toBe('insufficientShares');
    expect(rule(() => replay([...log, issuance('8000')]))).toBeUndefined();
    const shrink = tx('TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT', {
      securityId: s.id,
      previousSharesAuthorized: '10000',
      newSharesAuthorized: '1999',
      reason: null,
    });
    expect(rule(() => replay([...log, shrink]))).toBe('insufficientShares');
    // A second plan fits only in what is left.
    expect(
      rule(() => replay([...log, tx('STOCK_PLAN_CREATED', { plan: plan(s.id, '8001') })])),
    ).toBe('insufficientShares');
    // Nor can the class be deleted while a plan reserves shares of it.
    expect(rule(() => replay([...log, tx('STOCK_CLASS_DELETED', { securityId: s.id })]))).toBe(
      'conflict',
    );
  });

  it('pools fit in their plan; grants fit in their pool; a plan shrinks only down to its pools', () => {
    const { p, poolId, log } = base();
    const second = { id: id(), planId: p.id, name: 'Second', sharesReserved: '1' };
    expect(rule(() => replay([...log, tx('STOCK_PLAN_POOL_CREATED', { pool: second })]))).toBe(
      'insufficientShares',
    );
    const big = grant(p, poolId, '2001');
    expect(
      rule(() => replay([...log, tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: big })])),
    ).toBe('insufficientShares');
    const g = grant(p, poolId, '1500');
    const granted = [...log, tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: g })];
    expect(text(available(replay(granted).pools.get(poolId)!))).toBe('500');
    const shrinkPool = tx('STOCK_PLAN_POOL_UPDATED', {
      poolId,
      changes: { sharesReserved: '1499' },
    });
    expect(rule(() => replay([...granted, shrinkPool]))).toBe('insufficientShares');
    const shrinkPlan = tx('TX_STOCK_PLAN_POOL_ADJUSTMENT', {
      planId: p.id,
      previousSharesReserved: '2000',
      sharesReserved: '1999',
    });
    expect(rule(() => replay([...granted, shrinkPlan]))).toBe('insufficientShares');
    expect(rule(() => replay([...granted, tx('STOCK_PLAN_DELETED', { planId: p.id })]))).toBe(
      'conflict',
    );
    expect(rule(() => replay([...granted, tx('STOCK_PLAN_POOL_DELETED', { poolId })]))).toBe(
      'conflict',
    );
  });

  it('exercise turns reserved shares into issued ones, within what has vested', () => {
    const { s, p, poolId, log } = base();
    const v = standard();
    const g = grant(p, poolId, '1200', { vestingScheduleId: v.id });
    const history = [
      ...log,
      tx('VESTING_TERMS_CREATED', { vestingSchedule: v }),
      tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: g }),
    ];
    // 2023-01-01 start: the cliff on 2024-01-01 vests 300; a month later 325.
    const state = replay(history);
    expect(text(exercisable(state, state.holdings.get(g.id)!, '2023-12-31'))).toBe('0');
    expect(text(exercisable(state, state.holdings.get(g.id)!, '2024-01-01'))).toBe('300');
    expect(rule(() => replay([...history, exercise(g.id, '301', '2024-01-01')]))).toBe(
      'insufficientShares',
    );
    const after = replay([...history, exercise(g.id, '300', '2024-01-01')]);
    const sec = after.securities.get(s.id)!;
    expect([text(sec.issued), text(sec.reserved)]).toEqual(['300', '1700']);
    const holding = after.holdings.get(g.id)!;
    expect([text(holding.exercised), holding.status]).toEqual(['300', 'active']);
    expect(text(outstandingReservation(after.plans.get(p.id)!))).toBe('1700');
    const shares = [...after.shareholdings.values()];
    expect(shares.map((h) => [text(h.quantity), h.pricePerShare, h.certificateNumber])).toEqual([
      ['300', '0.5', 'CS-1'],
    ]);
    // Everything, once vested: the grant is exercised.
    const done = replay([
      ...history,
      exercise(g.id, '300', '2024-01-01'),
      exercise(g.id, '900', '2027-01-01'),
    ]);
    expect(done.holdings.get(g.id)!.status).toBe('exercised');
    expect(text(done.securities.get(s.id)!.reserved)).toBe('800');
  });

  it('early exercise allows unvested shares; an expired or cancelled grant is a conflict', () => {
    const { p, poolId, log } = base();
    const v = standard();
    const early = grant(p, poolId, '100', {
      vestingScheduleId: v.id,
      terms: {
        quantity: '100',
        earlyExercisable: true,
        grantDate: '2023-01-01',
        expirationDate: '2030-01-01',
      },
    });
    const history = [
      ...log,
      tx('VESTING_TERMS_CREATED', { vestingSchedule: v }),
      tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: early }),
    ];
    expect(
      rule(() => replay([...history, exercise(early.id, '100', '2023-02-01')])),
    ).toBeUndefined();
    expect(rule(() => replay([...history, exercise(early.id, '1', '2030-01-02')]))).toBe(
      'conflict',
    );
    expect(rule(() => replay([...history, exercise(early.id, '1', '2022-12-31')]))).toBe('invalid');
    const cancel = tx('TX_EQUITY_COMPENSATION_CANCELLATION', {
      holdingId: early.id,
      quantity: '100',
      returnedToPool: true,
      reason: 'terminated',
    });
    expect(rule(() => replay([...history, cancel, exercise(early.id, '1', '2024-02-01')]))).toBe(
      'conflict',
    );
  });

  it('a cancelled grant returns to its pool, or is retired from the plan and the class', () => {
    for (const retire of [false, true]) {
      const { s, p, poolId, log } = base(retire);
      const g = grant(p, poolId, '500');
      const state = replay([
        ...log,
        tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: g }),
        exercise(g.id, '100'),
        tx('TX_EQUITY_COMPENSATION_CANCELLATION', {
          holdingId: g.id,
          quantity: '400',
          returnedToPool: !retire,
          reason: 'terminated',
        }),
      ]);
      const pool = state.pools.get(poolId)!;
      expect([text(pool.cancelled), text(available(pool))]).toEqual([
        '400',
        retire ? '1500' : '1900',
      ]);
      expect(text(state.securities.get(s.id)!.reserved)).toBe(retire ? '1500' : '1900');
      expect(state.holdings.get(g.id)!.status).toBe('cancelled');
    }
  });

  it('exercise requests: pending, then approved by the exercise or rejected, never both', () => {
    const { p, poolId, log } = base();
    const g = grant(p, poolId, '100');
    const requestId = id();
    const history = [
      ...log,
      tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: g }),
      tx('EXERCISE_REQUESTED', {
        request: {
          id: requestId,
          holdingId: g.id,
          quantity: '60',
          date: '2024-01-01',
          paymentMethod: null,
          requestedByUserId: null,
        },
      }),
    ];
    expect(replay(history).requests.get(requestId)!.status).toBe('pending');
    const approve = { ...exercise(g.id, '60') } as LedgerTransaction & {
      payload: { requestId: string | null };
    };
    approve.payload = { ...approve.payload, requestId };
    const approved = replay([...history, approve]);
    expect(approved.requests.get(requestId)!.status).toBe('approved');
    const reject = tx('EXERCISE_REQUEST_REJECTED', { requestId });
    expect(rule(() => replay([...history, approve, reject]))).toBe('conflict');
    expect(replay([...history, reject]).requests.get(requestId)!.status).toBe('rejected');
    // A grant cancelled (or exercised in full) leaves no request pending.
    const cancel = tx('TX_EQUITY_COMPENSATION_CANCELLATION', {
      holdingId: g.id,
      quantity: '100',
      returnedToPool: true,
      reason: 'terminated',
    });
    expect(replay([...history, cancel]).requests.get(requestId)!.status).toBe('cancelled');
    expect(replay([...history, exercise(g.id, '100')]).requests.get(requestId)!.status).toBe(
      'cancelled',
    );
    expect(
      rule(() =>
        replay([
          ...history,
          tx('EXERCISE_REQUESTED', {
            request: {
              id: id(),
              holdingId: g.id,
              quantity: '101',
              date: '2024-01-01',
              paymentMethod: null,
              requestedByUserId: null,
            },
          }),
        ]),
      ),
    ).toBe('insufficientShares');
  });

  it('a note is repaid interest first, then principal; never more than is owed', () => {
    const note: HoldingRecord = {
      id: id(),
      memberId: 'm1',
      type: 'convertible_note',
      planId: null,
      poolId: null,
      securityId: null,
      vestingScheduleId: null,
      terms: {
        principal: '100000',
        currency: 'USD',
        interestRate: '5',
        interestType: 'simple',
        dayCount: '30/360',
        issueDate: '2024-01-01',
        maturityDate: '2026-01-01',
      },
    };
    const issued = tx('TX_CONVERTIBLE_ISSUANCE', { holding: note });
    const repay = (amount: string, date: string) =>
      tx('TX_CONVERTIBLE_REPAYMENT', { holdingId: note.id, amount, date }, date);
    // A year at 5% on 30/360: 5,000 of interest.
    const first = replay([issued, repay('15000', '2025-01-01')]).holdings.get(note.id)!;
    expect([
      text(first.interestPaid),
      text(first.principalOutstanding),
      text(first.accruedUnpaid),
    ]).toEqual(['5000', '90000', '0']);
    expect(rule(() => replay([issued, repay('105000.01', '2025-01-01')]))).toBe('invalid');
    const all = replay([issued, repay('105000', '2025-01-01')]).holdings.get(note.id)!;
    expect(all.status).toBe('repaid');
    expect(rule(() => replay([issued, repay('1', '2025-01-01'), repay('1', '2024-06-01')]))).toBe(
      'invalid',
    );
  });

  it('conversion issues shares from the unissued balance and ends the convertible', () => {
    const s = security('1000');
    const safe: HoldingRecord = {
      id: id(),
      memberId: 'm9',
      type: 'safe',
      planId: null,
      poolId: null,
      securityId: null,
      vestingScheduleId: null,
      terms: { amount: '100000', currency: 'USD', safeType: 'post_money', issueDate: '2024-01-01' },
    };
    const convert = (shares: string) =>
      tx('TX_CONVERTIBLE_CONVERSION', {
        holdingId: safe.id,
        legendIds: [],
        conversion: {
          date: '2025-01-01',
          shareholdingId: id(),
          securityId: s.id,
          shares,
          conversionPrice: '100',
          method: 'price',
          conversionAmount: '100000',
          roundPricePerShare: '100',
          preMoneyValuation: null,
        },
      });
    const history = [
      tx('STOCK_CLASS_CREATED', { security: s }),
      tx('TX_CONVERTIBLE_ISSUANCE', { holding: safe }),
    ];
    expect(rule(() => replay([...history, convert('1001')]))).toBe('insufficientShares');
    const state = replay([...history, convert('1000')]);
    expect(state.holdings.get(safe.id)!.status).toBe('converted');
    expect(text(state.securities.get(s.id)!.issued)).toBe('1000');
    expect(rule(() => replay([...history, convert('1'), convert('1')]))).toBe('conflict');
  });

  it('vesting terms are versioned: only the latest version can be replaced; used terms cannot be deleted', () => {
    const { p, poolId, log } = base();
    const v1 = standard();
    const v2 = { ...standard(), version: 2, previousVersionId: v1.id };
    const g = grant(p, poolId, '100', { vestingScheduleId: v1.id });
    const history = [
      ...log,
      tx('VESTING_TERMS_CREATED', { vestingSchedule: v1 }),
      tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: g }),
      tx('VESTING_TERMS_CREATED', { vestingSchedule: v2 }),
    ];
    const state = replay(history);
    expect(state.schedules.get(v1.id)!.supersededById).toBe(v2.id);
    expect(state.holdings.get(g.id)!.vestingScheduleId).toBe(v1.id);
    const v3 = { ...standard(), version: 2, previousVersionId: v1.id };
    expect(
      rule(() => replay([...history, tx('VESTING_TERMS_CREATED', { vestingSchedule: v3 })])),
    ).toBe('conflict');
    expect(
      rule(() => replay([...history, tx('VESTING_TERMS_DELETED', { vestingScheduleId: v1.id })])),
    ).toBe('conflict');
    expect(
      rule(() => replay([...history, tx('VESTING_TERMS_DELETED', { vestingScheduleId: v2.id })])),
    ).toBeUndefined();
  });
});

describe('incentive rules, under random histories', () => {
  type Step =
    | { kind: 'grant'; quantity: number }
    | { kind: 'exercise'; grant: number; quantity: number }
    | { kind: 'cancel'; grant: number }
    | { kind: 'resize'; quantity: number }
    | { kind: 'issue'; quantity: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('grant' as const), quantity: fc.integer({ min: 1, max: 900 }) }),
    fc.record({
      kind: fc.constant('exercise' as const),
      grant: fc.nat(),
      quantity: fc.integer({ min: 1, max: 500 }),
    }),
    fc.record({ kind: fc.constant('cancel' as const), grant: fc.nat() }),
    fc.record({
      kind: fc.constant('resize' as const),
      quantity: fc.integer({ min: 0, max: 4000 }),
    }),
    fc.record({ kind: fc.constant('issue' as const), quantity: fc.integer({ min: 1, max: 3000 }) }),
  );

  it('keeps issued + reserved ≤ authorized, pools within the plan, and the reservation equal to the plans’', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.boolean(), (steps, retire) => {
        const { s, p, poolId, log } = base(retire);
        const grants: string[] = [];
        let reserved = '2000';
        const accepted: LedgerTransaction[] = [...log];
        for (const st of steps) {
          let next: LedgerTransaction;
          if (st.kind === 'grant') {
            const g = grant(p, poolId, String(st.quantity));
            next = tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: g });
            grants.push(g.id);
          } else if (st.kind === 'issue') {
            next = tx('TX_STOCK_ISSUANCE', {
              shareholdingId: id(),
              securityId: s.id,
              memberId: 'm2',
              quantity: String(st.quantity),
              pricePerShare: null,
              issueDate: '2024-01-01',
              legendIds: [],
              consideration: null,
            });
          } else if (st.kind === 'resize') {
            next = tx('TX_STOCK_PLAN_POOL_ADJUSTMENT', {
              planId: p.id,
              previousSharesReserved: reserved,
              sharesReserved: String(st.quantity),
            });
          } else {
            if (!grants.length) continue;
            const g = grants[st.grant % grants.length];
            next =
              st.kind === 'exercise'
                ? exercise(g, String(st.quantity))
                : tx('TX_EQUITY_COMPENSATION_CANCELLATION', {
                    holdingId: g,
                    quantity: '0',
                    returnedToPool: !retire,
                    reason: 'test',
                  });
          }
          if (rule(() => replay([...accepted, next])) === undefined) {
            accepted.push(next);
            if (st.kind === 'resize') reserved = String(st.quantity);
          } else if (st.kind === 'grant') grants.pop();
        }
        const state: LedgerState = replay(accepted);
        const sec = state.securities.get(s.id)!;
        const pl = state.plans.get(p.id)!;
        const pool = state.pools.get(poolId)!;
        expect(sec.issued.plus(sec.reserved).lte(sec.authorized)).toBe(true);
        expect(sec.reserved.eq(outstandingReservation(pl))).toBe(true);
        expect(pool.sharesReserved.lte(pl.sharesReserved)).toBe(true);
        expect(available(pool).gte(0)).toBe(true);
        const active = [...state.shareholdings.values()].filter((h) => h.status === 'active');
        expect(active.reduce((a, h) => a.plus(h.quantity), toDecimal(0)).eq(sec.issued)).toBe(true);
        // Each grant: exercised + cancelled ≤ quantity.
        for (const h of state.holdings.values()) {
          expect(h.exercised.plus(h.cancelled).lte(h.quantity!)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});
