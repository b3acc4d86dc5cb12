import fc from 'fast-check';
import { toDecimal } from '../../../../libs/cap-math';
import { LedgerState } from '../ledger-state';
import { replay } from '../reducer';
import type { LedgerTransaction } from '../transaction-types';
import { id, tx } from '../../../../test/support/ledger-records';
import {
  brokenRule,
  decimalText,
  exerciseTx,
  grantRecord,
  planRecord,
  planWithPool,
} from '../../../../test/support/incentive-records';
import { available, outstandingReservation } from './plan-reservation';

describe('plan reservation rules', () => {
  it('a plan reserves shares of its class: they cannot be issued, nor authorized away', () => {
    const { s, log } = planWithPool();
    const state = replay(log);
    expect(decimalText(state.securities.get(s.id)!.reserved)).toBe('2000');
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
    expect(brokenRule(() => replay([...log, issuance('8001')]))).toBe('insufficientShares');
    expect(brokenRule(() => replay([...log, issuance('8000')]))).toBeUndefined();
    const shrink = tx('TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT', {
      securityId: s.id,
      previousSharesAuthorized: '10000',
      newSharesAuthorized: '1999',
      reason: null,
    });
    expect(brokenRule(() => replay([...log, shrink]))).toBe('insufficientShares');
    // A second plan fits only in what is left.
    expect(
      brokenRule(() =>
        replay([...log, tx('STOCK_PLAN_CREATED', { plan: planRecord(s.id, '8001') })]),
      ),
    ).toBe('insufficientShares');
    // Nor can the class be deleted while a plan reserves shares of it.
    expect(
      brokenRule(() => replay([...log, tx('STOCK_CLASS_DELETED', { securityId: s.id })])),
    ).toBe('conflict');
  });

  it('pools fit in their plan; grants fit in their pool; a plan shrinks only down to its pools', () => {
    const { p, poolId, log } = planWithPool();
    const second = { id: id(), planId: p.id, name: 'Second', sharesReserved: '1' };
    expect(
      brokenRule(() => replay([...log, tx('STOCK_PLAN_POOL_CREATED', { pool: second })])),
    ).toBe('insufficientShares');
    const big = grantRecord(p, poolId, '2001');
    expect(
      brokenRule(() => replay([...log, tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: big })])),
    ).toBe('insufficientShares');
    const g = grantRecord(p, poolId, '1500');
    const granted = [...log, tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: g })];
    expect(decimalText(available(replay(granted).pools.get(poolId)!))).toBe('500');
    const shrinkPool = tx('STOCK_PLAN_POOL_UPDATED', {
      poolId,
      changes: { sharesReserved: '1499' },
    });
    expect(brokenRule(() => replay([...granted, shrinkPool]))).toBe('insufficientShares');
    const shrinkPlan = tx('TX_STOCK_PLAN_POOL_ADJUSTMENT', {
      planId: p.id,
      previousSharesReserved: '2000',
      sharesReserved: '1999',
    });
    expect(brokenRule(() => replay([...granted, shrinkPlan]))).toBe('insufficientShares');
    expect(brokenRule(() => replay([...granted, tx('STOCK_PLAN_DELETED', { planId: p.id })]))).toBe(
      'conflict',
    );
    expect(brokenRule(() => replay([...granted, tx('STOCK_PLAN_POOL_DELETED', { poolId })]))).toBe(
      'conflict',
    );
  });

  it('a cancelled grant returns to its pool, or is retired from the plan and the class', () => {
    for (const retire of [false, true]) {
      const { s, p, poolId, log } = planWithPool(retire);
      const g = grantRecord(p, poolId, '500');
      const state = replay([
        ...log,
        tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: g }),
        exerciseTx(g.id, '100'),
        tx('TX_EQUITY_COMPENSATION_CANCELLATION', {
          holdingId: g.id,
          quantity: '400',
          returnedToPool: !retire,
          reason: 'terminated',
        }),
      ]);
      const pool = state.pools.get(poolId)!;
      expect([decimalText(pool.cancelled), decimalText(available(pool))]).toEqual([
        '400',
        retire ? '1500' : '1900',
      ]);
      expect(decimalText(state.securities.get(s.id)!.reserved)).toBe(retire ? '1500' : '1900');
      expect(state.holdings.get(g.id)!.status).toBe('cancelled');
    }
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
        const { s, p, poolId, log } = planWithPool(retire);
        const grants: string[] = [];
        let reserved = '2000';
        const accepted: LedgerTransaction[] = [...log];
        for (const st of steps) {
          let next: LedgerTransaction;
          if (st.kind === 'grant') {
            const g = grantRecord(p, poolId, String(st.quantity));
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
                ? exerciseTx(g, String(st.quantity))
                : tx('TX_EQUITY_COMPENSATION_CANCELLATION', {
                    holdingId: g,
                    quantity: '0',
                    returnedToPool: !retire,
                    reason: 'test',
                  });
          }
          if (brokenRule(() => replay([...accepted, next])) === undefined) {
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
