import fc from 'fast-check';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { emptyState, LedgerRuleError, LedgerState } from '../ledger/ledger-state';
import { applyTransaction } from '../ledger/reducer';
import type { LedgerTransaction, SecurityRecord } from '../ledger/transaction-types';
import { planSteps, WantedPlan } from './plan-changes';

let n = 0;
const id = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

const apply = (state: LedgerState, type: LedgerTransaction['type'], payload: unknown) =>
  applyTransaction(state, {
    id: id(),
    type,
    effectiveDate: '2024-01-01',
    payload,
  } as LedgerTransaction);

const SECURITY: Omit<SecurityRecord, 'id' | 'authorizedShares'> = {
  name: 'Common',
  classType: 'common',
  idPrefix: 'CS-',
  parValue: null,
  originalIssuePrice: null,
  currency: 'USD',
  seniority: 1,
  liquidationPreferenceMultiple: null,
  participating: false,
  participationCapMultiple: null,
  conversionRatio: '1',
  votesPerShare: '1',
  boardApprovalDate: null,
};

interface PoolSetup {
  reserved: number;
  granted: number;
  /** What happens to the grant: nothing, part exercised, cancelled back to the pool, or retired. */
  fate: 'none' | 'exercise' | 'return' | 'retire';
}

/** A class of 1000 shares, `issued` of them issued, and one plan with its pools and grants. */
function setUp(issued: number, planReserved: number, pools: PoolSetup[]) {
  const state = emptyState();
  const securityId = id();
  const planId = id();
  apply(state, 'STOCK_CLASS_CREATED', {
    security: { id: securityId, authorizedShares: '1000', ...SECURITY },
  });
  if (issued) {
    apply(state, 'TX_STOCK_ISSUANCE', {
      shareholdingId: id(),
      securityId,
      memberId: 'm1',
      quantity: String(issued),
      pricePerShare: null,
      issueDate: '2024-01-01',
      legendIds: [],
      consideration: null,
    });
  }
  apply(state, 'STOCK_PLAN_CREATED', {
    plan: {
      id: planId,
      name: 'Plan',
      securityId,
      sharesReserved: String(planReserved),
      boardApprovalDate: null,
      stockholderApprovalDate: null,
      defaultCancellationBehavior: 'return_to_pool',
    },
  });
  const poolIds = pools.map((p, i) => {
    const poolId = id();
    apply(state, 'STOCK_PLAN_POOL_CREATED', {
      pool: { id: poolId, planId, name: `P${i}`, sharesReserved: String(p.reserved) },
    });
    if (p.granted) {
      const holdingId = id();
      apply(state, 'TX_EQUITY_COMPENSATION_ISSUANCE', {
        holding: {
          id: holdingId,
          memberId: 'm1',
          type: 'option',
          planId,
          poolId,
          securityId,
          vestingScheduleId: null,
          terms: { quantity: String(p.granted), grantDate: '2024-01-01' },
        },
      });
      if (p.fate === 'exercise') {
        apply(state, 'TX_EQUITY_COMPENSATION_EXERCISE', {
          holdingId,
          requestId: null,
          quantity: String(Math.ceil(p.granted / 2)),
          date: '2024-01-02',
          paymentMethod: null,
          shareholdingId: id(),
          legendIds: [],
        });
      } else if (p.fate === 'return' || p.fate === 'retire') {
        apply(state, 'TX_EQUITY_COMPENSATION_CANCELLATION', {
          holdingId,
          quantity: String(p.granted),
          returnedToPool: p.fate === 'return',
          reason: 'test',
        });
      }
    }
    return poolId;
  });
  return { state, planId, securityId, poolIds };
}

const fields = (name = 'Plan'): WantedPlan['fields'] => ({
  name,
  boardApprovalDate: null,
  stockholderApprovalDate: null,
  defaultCancellationBehavior: 'return_to_pool',
});

describe('planSteps', () => {
  it('changes nothing when nothing changes (canonical quantities compare as numbers)', () => {
    const { state, planId, poolIds } = setUp(0, 500, [{ reserved: 100, granted: 0, fate: 'none' }]);
    const steps = planSteps(state.plans.get(planId)!, [...state.pools.values()], {
      fields: fields(),
      sharesReserved: '500',
      pools: [{ id: poolIds[0], name: 'P0', sharesReserved: '100' }],
    });
    expect(steps).toEqual([]);
  });

  it('orders: fields, deletions, shrinks, the plan, growths, creations', () => {
    const { state, planId, poolIds } = setUp(0, 500, [
      { reserved: 100, granted: 0, fate: 'none' },
      { reserved: 100, granted: 0, fate: 'none' },
      { reserved: 100, granted: 0, fate: 'none' },
    ]);
    const steps = planSteps(
      state.plans.get(planId)!,
      [...state.pools.values()],
      {
        fields: fields('Renamed'),
        sharesReserved: '900',
        pools: [
          { id: poolIds[0], name: 'P0', sharesReserved: '400' },
          { name: 'New', sharesReserved: '300' },
          { id: poolIds[1], name: 'P1 renamed', sharesReserved: '50' },
        ],
      },
      () => 'new-pool',
    );
    expect(steps.map((s) => s.type)).toEqual([
      'STOCK_PLAN_UPDATED',
      'STOCK_PLAN_POOL_DELETED',
      'STOCK_PLAN_POOL_UPDATED',
      'TX_STOCK_PLAN_POOL_ADJUSTMENT',
      'STOCK_PLAN_POOL_UPDATED',
      'STOCK_PLAN_POOL_CREATED',
    ]);
    expect(steps[2].payload).toEqual({
      poolId: poolIds[1],
      changes: { name: 'P1 renamed', sharesReserved: '50' },
    });
    expect(steps[5].payload).toEqual({
      pool: { id: 'new-pool', planId, name: 'New', sharesReserved: '300' },
    });
  });

  it('refuses a pool id that is not one of the plan’s live pools (404) or listed twice (400)', () => {
    const { state, planId, poolIds } = setUp(0, 500, [{ reserved: 100, granted: 0, fate: 'none' }]);
    const plan = state.plans.get(planId)!;
    const pools = [...state.pools.values()];
    const wanted = (ids: string[]) => ({
      fields: fields(),
      sharesReserved: '500',
      pools: ids.map((x) => ({ id: x, name: 'P', sharesReserved: '1' })),
    });
    expect(() => planSteps(plan, pools, wanted([id()]))).toThrow(
      expect.objectContaining({ rule: 'notFound' }) as LedgerRuleError,
    );
    expect(() => planSteps(plan, pools, wanted([poolIds[0], poolIds[0]]))).toThrow(
      expect.objectContaining({ rule: 'invalid', field: 'pools[1].id' }) as LedgerRuleError,
    );
  });

  // The promise of the ordering: a PUT is refused exactly when the plan it asks for breaks an
  // invariant, never because of the order of its steps.
  it('applies every step of a valid end state, and fails on some step of an invalid one', () => {
    const poolSetup: fc.Arbitrary<PoolSetup> = fc
      .record({
        reserved: fc.integer({ min: 0, max: 200 }),
        share: fc.integer({ min: 0, max: 100 }),
        fate: fc.constantFrom('none', 'exercise', 'return', 'retire'),
      })
      .map(({ reserved, share, fate }) => ({
        reserved,
        granted: Math.floor((reserved * share) / 100),
        fate: fate as PoolSetup['fate'],
      }));
    const wantedPool = fc.record({
      keep: fc.boolean(),
      reserved: fc.integer({ min: 0, max: 400 }),
      rename: fc.boolean(),
    });
    const seen = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.array(poolSetup, { maxLength: 3 }),
        fc.integer({ min: 0, max: 200 }),
        fc.array(wantedPool, { maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 2 }),
        fc.integer({ min: 0, max: 1100 }),
        (issued, pools, spare, wantedPools, created, nextReserved) => {
          const planReserved = pools.reduce((a, p) => a + p.reserved, 0) + spare;
          fc.pre(issued + planReserved <= 1000);
          const { state, planId, securityId, poolIds } = setUp(issued, planReserved, pools);
          const plan = state.plans.get(planId)!;
          const before = {
            reserved: plan.sharesReserved,
            spent: plan.exercised.plus(plan.retired),
            free: (() => {
              const s = state.securities.get(securityId)!;
              return s.authorized.minus(s.issued).minus(s.reserved);
            })(),
          };
          const kept = poolIds
            .map((poolId, i) => ({ poolId, w: wantedPools[i] }))
            .filter((x) => x.w?.keep);
          const wanted: WantedPlan = {
            fields: fields(),
            sharesReserved: String(nextReserved),
            pools: [
              ...kept.map(({ poolId, w }) => ({
                id: poolId,
                name: w.rename ? `${poolId}-renamed` : state.pools.get(poolId)!.name,
                sharesReserved: String(w.reserved),
              })),
              ...created.map((r, i) => ({ name: `New${i}`, sharesReserved: String(r) })),
            ],
          };
          const committed = (poolId: string) => {
            const p = state.pools.get(poolId)!;
            return p.granted.minus(p.returned);
          };
          const next = toDecimal(nextReserved);
          const valid =
            wanted.pools.reduce((a, p) => a + Number(p.sharesReserved), 0) <= nextReserved &&
            next.gte(before.spent) &&
            next.minus(before.reserved).lte(before.free) &&
            kept.every(({ poolId, w }) => committed(poolId).lte(w.reserved)) &&
            poolIds
              .filter((x) => !kept.some((k) => k.poolId === x))
              .every((x) => committed(x).isZero());

          const steps = planSteps(plan, [...state.pools.values()], wanted);
          let failed = false;
          try {
            for (const s of steps) apply(state, s.type, s.payload);
          } catch (err) {
            if (!(err instanceof LedgerRuleError)) throw err;
            failed = true;
          }
          expect(failed).toBe(!valid);
          seen[valid ? 'valid' : 'invalid'] += 1;
          if (valid) {
            const live = [...state.pools.values()].filter((p) => !p.deleted);
            expect(live.map((p) => toDecimalString(p.sharesReserved)).sort()).toEqual(
              wanted.pools.map((p) => p.sharesReserved).sort(),
            );
            const after = state.plans.get(planId)!;
            expect(toDecimalString(after.sharesReserved)).toBe(String(nextReserved));
            // The class holds back what the plan still holds.
            expect(toDecimalString(state.securities.get(securityId)!.reserved)).toBe(
              toDecimalString(next.minus(before.spent)),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
    // Both sides of the promise were tried, not only one.
    expect(seen.valid).toBeGreaterThan(30);
    expect(seen.invalid).toBeGreaterThan(30);
  });
});
