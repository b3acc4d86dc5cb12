import { toDecimal, toDecimalString } from '../../../../libs/cap-math';
import { canonical, ledgerComment, numeric, withComments } from '../../../../libs/ocf';
import { type OcfMapping, TX_FIELDS } from './ocf-mapping';

/**
 * The plan's reservation in OCF (which has no pools). The import keeps the export's pools at
 * their sizes, or resizes the plan's one pool with it.
 */
export const stockPlanPoolAdjustmentOcf: OcfMapping<'TX_STOCK_PLAN_POOL_ADJUSTMENT'> = {
  export: {
    from: 'replayed',
    map: (row, p) => [
      withComments(
        {
          object_type: 'TX_STOCK_PLAN_POOL_ADJUSTMENT',
          id: row.id,
          date: row.effectiveDate,
          stock_plan_id: p.planId,
          shares_reserved: numeric(p.sharesReserved),
        },
        [ledgerComment('previousSharesReserved', p.previousSharesReserved)],
      ),
    ],
  },
  import: {
    objects: {
      TX_STOCK_PLAN_POOL_ADJUSTMENT: {
        keeps: [...TX_FIELDS, 'stock_plan_id', 'shares_reserved'],
        read(l, ctx) {
          const o = l.object;
          const plan = ctx.plans.get(String(o.stock_plan_id))!;
          const p = ctx.state.plans.get(plan.planId)!;
          ctx.notes(o, 'previousSharesReserved');
          const next = canonical(String(o.shares_reserved));
          const grow = toDecimal(next).gte(p.sharesReserved);
          const planTx = {
            type: 'TX_STOCK_PLAN_POOL_ADJUSTMENT' as const,
            effectiveDate: String(o.date),
            payload: {
              planId: plan.planId,
              previousSharesReserved: toDecimalString(p.sharesReserved),
              sharesReserved: next,
            },
          };
          if (plan.pools) {
            if (!ctx.record(l, planTx)) return false;
            ctx.fitPools(l, plan.planId, plan.pools);
            return true;
          }
          const poolTx = {
            type: 'STOCK_PLAN_POOL_UPDATED' as const,
            effectiveDate: String(o.date),
            payload: { poolId: plan.poolId, changes: { sharesReserved: next } },
          };
          // The pool stays within the plan: the plan grows first, or the pool shrinks first.
          return grow
            ? ctx.record(l, planTx) && ctx.record(l, poolTx)
            : ctx.record(l, poolTx) && ctx.record(l, planTx);
        },
      },
    },
  },
};
