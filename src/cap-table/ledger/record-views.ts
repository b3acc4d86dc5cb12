import type { EntityTarget, ObjectLiteral } from 'typeorm';
import type { InTransaction } from '../../database';
import { Plan } from '../plans/plan.entity';
import { toPlanView } from '../plans/plan.view';
import { Pool } from '../plans/pool.entity';
import { CapitalChange } from '../capital-changes/capital-change.entity';
import { toCapitalChangeView } from '../capital-changes/capital-change.view';
import { Legend } from '../legends/legend.entity';
import { toLegendView } from '../legends/legend.view';
import { Holding } from '../holdings/holding.entity';
import { toHoldingView } from '../holdings/holding.view';
import { ExerciseRequest } from '../options/exercise-request.entity';
import { toExerciseRequestView } from '../options/option.view';
import { Security } from '../securities/security.entity';
import { toSecurityView } from '../securities/security.view';
import { Shareholding } from '../shareholdings/shareholding.entity';
import { toShareholdingView } from '../shareholdings/shareholding.view';
import { VestingScheduleEntity } from '../vesting-schedules/vesting-schedule.entity';
import { toVestingScheduleView } from '../vesting-schedules/vesting-schedule.view';
import { Valuation } from '../valuations/valuation.entity';
import { toValuationView } from '../valuations/valuation.view';
import type { ViewKind } from './transactions/definition';

/**
 * How the API shows a record the ledger wrote: its entity (as the change wrote it, or as its table
 * holds it) and its view, which may read the rows it is made of besides (a plan's pools) in the
 * change's transaction, and figures of the day (what a grant has vested by the writer's today). Routes answer with these and events carry them, so an event's object is
 * what the record's own route would answer.
 */
export const RECORD_VIEWS: {
  [K in ViewKind]: {
    entity: EntityTarget<ObjectLiteral>;
    view(row: never, tx: InTransaction, today: string): object | Promise<object>;
  };
} = {
  shareholdings: { entity: Shareholding, view: toShareholdingView },
  securities: { entity: Security, view: toSecurityView },
  plans: {
    entity: Plan,
    view: async (plan: Plan, tx: InTransaction) =>
      toPlanView(plan, await tx.manager.getRepository(Pool).findBy({ planId: plan.id })),
  },
  schedules: { entity: VestingScheduleEntity, view: toVestingScheduleView },
  legends: { entity: Legend, view: toLegendView },
  valuations: { entity: Valuation, view: toValuationView },
  capitalChanges: { entity: CapitalChange, view: toCapitalChangeView },
  holdings: { entity: Holding, view: holdingView },
  requests: { entity: ExerciseRequest, view: toExerciseRequestView },
};

/** A holding as its route shows it: vested today by the version of the schedule it has. */
async function holdingView(h: Holding, tx: InTransaction, today: string): Promise<object> {
  const schedule = h.vestingScheduleId
    ? await tx.manager.getRepository(VestingScheduleEntity).findOneBy({ id: h.vestingScheduleId })
    : null;
  return toHoldingView(h, schedule, today);
}
