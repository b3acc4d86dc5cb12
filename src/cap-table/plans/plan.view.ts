import { ApiProperty } from '@nestjs/swagger';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { toPoolState } from '../ledger/incentive-store';
import { available, outstandingOfPool } from '../ledger/incentives/plan-reservation';
import { CANCELLATION_BEHAVIORS, type CancellationBehavior } from '../ledger/incentive-types';
import { DateView, DecimalView, TimestampView, UuidView } from '../view-fields';
import { Plan } from './plan.entity';
import { Pool } from './pool.entity';

/** What was done with a pool's reservation (decimal strings). */
export class PoolFigures {
  /** Everything ever granted from it. */
  @DecimalView({ example: '120000' }) granted: string;
  @DecimalView({ example: '10000' }) exercised: string;
  @DecimalView({ example: '5000' }) cancelled: string;
  /** Cancelled and returned to the pool (available again). */
  @DecimalView({ example: '5000' }) returned: string;
  /** Reserved − granted + returned. */
  @DecimalView({ example: '385000' }) available: string;
  /** Granted − exercised − cancelled. */
  @DecimalView({ example: '105000' }) outstanding: string;
}

/** A pool as its plan lists it. */
export class PlanPoolView extends PoolFigures {
  @UuidView() id: string;
  name: string;
  /** Its part of the plan's reservation. */
  @DecimalView({ example: '500000' }) sharesReserved: string;
}

/** A stock plan (OCF StockPlan) with its live pools. */
export class PlanView {
  @UuidView() id: string;
  @UuidView() organization: string;
  name: string;
  /** The share class its grants exercise into. */
  @UuidView() security: string;
  /** Shares of the class held back for the plan's grants. */
  @DecimalView({ example: '1000000' }) sharesReserved: string;
  @DateView({ nullable: true }) boardApprovalDate: string | null;
  @DateView({ nullable: true }) stockholderApprovalDate: string | null;
  /** What a cancelled grant does by default: go back to its pool, or leave the plan. */
  @ApiProperty({ enum: CANCELLATION_BEHAVIORS })
  defaultCancellationBehavior: CancellationBehavior;
  /** Ordered by creation, then name. */
  pools: PlanPoolView[];
  @TimestampView() created: string;
  @TimestampView() updated: string;
}

/** A row of `GET /v1/captable/:organization/pool`. */
export class PoolListItem extends PoolFigures {
  @UuidView() id: string;
  @UuidView() plan: string;
  planName: string;
  name: string;
  /** The pool's part of the plan's reservation. */
  @DecimalView({ example: '500000' }) reserved: string;
}

/** What was done with a reservation, and where it stands today (decimal strings). */
export class PlanFigures {
  @DecimalView({ example: '1000000' }) reserved: string;
  /** Everything ever granted. */
  @DecimalView({ example: '120000' }) granted: string;
  @DecimalView({ example: '10000' }) exercised: string;
  @DecimalView({ example: '5000' }) cancelled: string;
  /** Cancelled and returned to a pool. */
  @DecimalView({ example: '5000' }) returned: string;
  /** Reserved − granted + returned. */
  @DecimalView({ example: '885000' }) available: string;
  /** Granted − exercised − cancelled. */
  @DecimalView({ example: '105000' }) outstanding: string;
  /** Of the outstanding grants: vested and not yet exercised. */
  @DecimalView({ example: '40000' }) vested: string;
  /** Outstanding − vested. */
  @DecimalView({ example: '65000' }) unvested: string;
}

/** A pool's figures in the plan dashboard. */
export class PoolDashboard extends PlanFigures {
  @UuidView() pool: string;
  name: string;
}

/** `GET /v1/plan/:plan/dashboard`: the plan's figures today, in total and per pool. */
export class PlanDashboard extends PlanFigures {
  @UuidView() plan: string;
  /** The date the figures are of (today). */
  @DateView() asOf: string;
  /** Cancelled grants the plan retired (they left its reservation instead of returning to a pool). */
  @DecimalView({ example: '0' }) retired: string;
  /** Its live pools, by creation. */
  pools: PoolDashboard[];
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
