import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';
import type { TransactionType } from './transaction-types';

/**
 * The append-only log of the cap table: every change is one row, never updated or deleted (a
 * database trigger refuses both); a correction is a new transaction. The current-state tables
 * are updated in the same database transaction, and `npm run cli -- ledger:verify` proves they
 * equal a replay of this log.
 */
@Entity('equity_transaction')
@Index('equity_transaction_org_sequence_idx', ['organizationId', 'sequence'])
@Index('equity_transaction_org_effective_idx', ['organizationId', 'effectiveDate'])
export class EquityTransaction {
  @PrimaryColumn('uuid')
  id: string;

  /** Recording order across the log. */
  @Column({ type: 'bigint', generated: 'increment' })
  sequence: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 60 })
  type: TransactionType;

  /** The day the change takes effect (an issuance's date, a transfer's date ...). */
  @Column({ type: 'date' })
  effectiveDate: string;

  @Column({ type: 'uuid', nullable: true })
  actorUserId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  recordedAt: Date;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
