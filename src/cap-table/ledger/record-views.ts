import type { EntityTarget, ObjectLiteral } from 'typeorm';
import type { InTransaction } from '../../database';
import { Holding } from '../holdings/holding.entity';
import { toHoldingView } from '../holdings/holding.view';
import { ExerciseRequest } from '../options/exercise-request.entity';
import { toExerciseRequestView } from '../options/option.view';
import { today } from '../quantities';
import { Security } from '../securities/security.entity';
import { toSecurityView } from '../securities/security.view';
import { Shareholding } from '../shareholdings/shareholding.entity';
import { toShareholdingView } from '../shareholdings/shareholding.view';
import { VestingScheduleEntity } from '../vesting-schedules/vesting-schedule.entity';
import type { ViewKind } from './transactions/definition';

/**
 * How the API shows a record the ledger wrote: its entity (as the change wrote it, or as its table
 * holds it) and its view (reading in the change's transaction what else it shows). Routes answer
 * with these and events carry them, so an event's object is what the record's own route would
 * answer.
 */
export const RECORD_VIEWS: {
  [K in ViewKind]: {
    entity: EntityTarget<ObjectLiteral>;
    view(row: never, tx: InTransaction): object | Promise<object>;
  };
} = {
  shareholdings: { entity: Shareholding, view: toShareholdingView },
  securities: { entity: Security, view: toSecurityView },
  holdings: { entity: Holding, view: holdingView },
  requests: { entity: ExerciseRequest, view: toExerciseRequestView },
};

/** A holding as its route shows it: vested today by the version of the schedule it has. */
async function holdingView(h: Holding, tx: InTransaction): Promise<object> {
  const schedule = h.vestingScheduleId
    ? await tx.manager.getRepository(VestingScheduleEntity).findOneBy({ id: h.vestingScheduleId })
    : null;
  return toHoldingView(h, schedule, today());
}
