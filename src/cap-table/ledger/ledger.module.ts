import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CapitalChange } from '../capital-changes/capital-change.entity';
import { Holding } from '../holdings/holding.entity';
import { Legend } from '../legends/legend.entity';
import { ExerciseRequest } from '../options/exercise-request.entity';
import { Plan } from '../plans/plan.entity';
import { Pool } from '../plans/pool.entity';
import { Security } from '../securities/security.entity';
import { ShareBlock } from '../shareholdings/share-block.entity';
import { Shareholding } from '../shareholdings/shareholding.entity';
import { Valuation } from '../valuations/valuation.entity';
import { VestingScheduleEntity } from '../vesting-schedules/vesting-schedule.entity';
import { EquityTransaction } from './equity-transaction.entity';
import { LedgerLogReader } from './ledger-log-reader';
import { LedgerReader } from './ledger-reader';
import { LedgerStore } from './ledger-store';
import { LedgerVerifier } from './ledger-verifier';
import { LedgerMove } from './moves/ledger-move.entity';
import { MovesBackfill } from './moves/moves-backfill';
import { LedgerMoveBackfill } from './moves/moves-backfill.entity';

/** The log and the current-state tables of the cap table; no HTTP, events or Redis (the CLI uses it). */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      EquityTransaction,
      Security,
      Legend,
      Shareholding,
      ShareBlock,
      Valuation,
      CapitalChange,
      VestingScheduleEntity,
      Plan,
      Pool,
      Holding,
      ExerciseRequest,
      LedgerMove,
      LedgerMoveBackfill,
    ]),
  ],
  providers: [LedgerStore, LedgerReader, LedgerVerifier, LedgerLogReader, MovesBackfill],
  exports: [LedgerStore, LedgerReader, LedgerVerifier, LedgerLogReader, TypeOrmModule],
})
export class LedgerModule {}
