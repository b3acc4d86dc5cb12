import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { toPoolState } from '../ledger/incentive-store';
import { available, outstandingOfPool } from '../ledger/incentive-rules';
import type { CancellationBehavior } from '../ledger/incentive-types';
import { Plan } from './plan.entity';
import { Pool } from './pool.entity';

/** What was done with a pool's reservation (decimal strings). */
export interface PoolFigures {
  granted: string;
  exercised: string;
  cancelled: string;
  /** Cancelled and returned to the pool (available again). */
  returned: string;
  /** Reserved − granted + returned. */
  available: string;
  /** Granted − exercised − cancelled. */
  outstanding: string;
}

export interface PlanPoolView extends PoolFigures {
  id: string;
  name: string;
  sharesReserved: string;
}

export interface PlanView {
  id: string;
  organization: string;
  name: string;
  security: string;
  sharesReserved: string;
  boardApprovalDate: string | null;
  stockholderApprovalDate: string | null;
  defaultCancellationBehavior: CancellationBehavior;
  pools: PlanPoolView[];
  created: string;
  updated: string;
}

/** A row of `GET /v1/captable/:organization/pool`. */
export interface PoolListItem extends PoolFigures {
  id: string;
  plan: string;
  planName: string;
  name: string;
  reserved: string;
}

/** The figures the ledger keeps on a pool, and the two derived from them by the ledger's own rules. */
export function poolFigures(p: Pool): PoolFigures {
  const s = toPoolState(p);
  return {
    granted: toDecimalString(s.granted),
    exercised: toDecimalString(s.exercised),
    cancelled: toDecimalString(s.cancelled),
    returned: toDecimalString(s.returned),
    available: toDecimalString(available(s)),
    outstanding: toDecimalString(outstandingOfPool(s)),
  };
}

/**
 * Pools in a stable order: by creation, then name. Pools made by one request share the
 * transaction's timestamp, so the name (then the id) decides among them.
 */
export const byCreation = (a: Pool, b: Pool) =>
  a.created.getTime() - b.created.getTime() ||
  (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const dec = (v: string) => toDecimalString(toDecimal(v));

/** The plan with its live pools (`pools` may hold deleted ones and other plans': they are left out). */
export const toPlanView = (p: Plan, pools: Pool[]): PlanView => ({
  id: p.id,
  organization: p.organizationId,
  name: p.name,
  security: p.securityId,
  sharesReserved: dec(p.sharesReserved),
  boardApprovalDate: p.boardApprovalDate,
  stockholderApprovalDate: p.stockholderApprovalDate,
  defaultCancellationBehavior: p.defaultCancellationBehavior,
  pools: pools
    .filter((x) => x.planId === p.id && x.deletedAt === null)
    .sort(byCreation)
    .map((x) => ({
      id: x.id,
      name: x.name,
      sharesReserved: dec(x.sharesReserved),
      ...poolFigures(x),
    })),
  created: p.created.toISOString(),
  updated: p.updated.toISOString(),
});

export const toPoolListItem = (p: Plan, x: Pool): PoolListItem => ({
  id: x.id,
  plan: p.id,
  planName: p.name,
  name: x.name,
  reserved: dec(x.sharesReserved),
  ...poolFigures(x),
});
