import { Entity, PrimaryColumn } from 'typeorm';

/**
 * Organizations whose log predates the moves (listed by the migration that made them): their
 * moves are made from their logs when the service starts (`MovesBackfill`).
 */
@Entity('ledger_move_backfill')
export class LedgerMoveBackfill {
  @PrimaryColumn('uuid')
  organizationId: string;
}
