import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../../../database';

/**
 * One record's change by one log entry, dated as the as-of rule counts the entry: the moves of
 * an organization up to a date, summed, are its cap table of that date (an indexed query where a
 * replay of the log would read it all). Written with the change, in the same statement as its
 * log entry; `ledger:verify` replays the log to check them.
 *
 * A shareholding moves its member's active shares of its class (`quantity`, a delta). Any other
 * record a position holds (a class, plan, pool, grant, warrant, note or SAFE, vesting schedule)
 * moves its decimal fields by `deltas` and sets its other fields in `fields` (the last set on or
 * before the date, in recording order, holds; a decimal field's entry there is `"#"`, or null).
 */
@Entity('ledger_move')
@Index('ledger_move_org_kind_date_idx', ['organizationId', 'kind', 'effectiveDate'])
@Index('ledger_move_record_idx', ['recordId', 'id'])
@Index('ledger_move_resets_idx', ['organizationId', 'effectiveDate'], { where: '"resets"' })
@Index('ledger_move_dated_by_idx', ['organizationId', 'datedBy'], {
  where: '"dated_by" IS NOT NULL',
})
export class LedgerMove {
  /** Recording order. */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  /** The log entry (`equity_transaction.id`) that made the move. */
  @Column({ type: 'uuid' })
  transactionId: string;

  /** The day it counts from; `-infinity` for a definition (it holds for all of history). */
  @Column({ type: 'date' })
  effectiveDate: string;

  /**
   * The shareholding whose issue date dates the move (its issuance's and corrections' moves):
   * a correction of the issue date moves them all.
   */
  @Column({ type: 'uuid', nullable: true })
  datedBy: string | null;

  /** The ledger state's kind of the record (`shareholdings`, `securities`, `holdings` ...). */
  @Column({ type: 'varchar', length: 20 })
  kind: string;

  @Column({ type: 'uuid' })
  recordId: string;

  /** A shareholding's member and class. */
  @Column({ type: 'uuid', nullable: true })
  memberId: string | null;

  @Column({ type: 'uuid', nullable: true })
  securityId: string | null;

  /**
   * The move that made the record: a shareholding's other moves count only with it (a split
   * recorded after an issuance dated later does not give the holding shares before it exists).
   */
  @Column({ type: 'boolean', default: false })
  creates: boolean;

  /**
   * Made by a change that sets or scales a value rather than adding to it (`RESETTING_TYPES`):
   * recorded after a move of the same record that counts later, it was computed on a record a
   * replay of the dates between does not see, so there the moves do not serve (`movesServe`).
   */
  @Column({ type: 'boolean', default: false })
  resets: boolean;

  /** A shareholding's active shares, the change of. */
  @Column({ type: 'numeric', nullable: true })
  quantity: string | null;

  @Column({ type: 'jsonb', nullable: true })
  deltas: Record<string, string> | null;

  @Column({ type: 'jsonb', nullable: true })
  fields: Record<string, unknown> | null;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
