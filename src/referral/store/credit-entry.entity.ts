import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export const CREDIT_ENTRY_KINDS = [
  'grant',
  'transfer_in',
  'transfer_out',
  'redemption',
  'redemption_reversal',
  'expiry',
] as const;
export type CreditEntryKind = (typeof CREDIT_ENTRY_KINDS)[number];

/**
 * One line of an entity's credit ledger, append-only (a trigger refuses UPDATE, DELETE and
 * TRUNCATE): a reward granted (+), a transfer in (+) or out (-), a redemption against invoices
 * (-) and, when the billing provider refused it, its reversal (+), an expiry (-). A transfer's two
 * lines share its `movementId`, so do a redemption and its reversal.
 */
@Entity('credit_entry')
@Index('credit_entry_entity_idx', ['entityId', 'sequence'])
export class CreditEntry {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** Order of writing: the history lists newest first by it. */
  @Column({ type: 'bigint', generated: 'increment' })
  sequence: string;

  @Column({ type: 'uuid' })
  entityId: string;

  @Column({ type: 'varchar', length: 20 })
  kind: CreditEntryKind;

  /** Signed: what the entry adds to the balance. */
  @Column({ type: 'numeric', precision: 16, scale: 2 })
  amount: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  /** The transfer (both lines), the reward card or the redemption this entry belongs to. */
  @Column({ type: 'uuid' })
  movementId: string;

  /** A transfer's other side. */
  @Column({ type: 'uuid', nullable: true })
  counterpartyEntityId: string | null;

  /** Who caused it (the transferring or revealing user); null for the service's own. */
  @Column({ type: 'uuid', nullable: true })
  actorUserId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;
}
