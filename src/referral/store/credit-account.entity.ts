import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/**
 * An entity's place in the credit ledger: the row every movement out of the entity locks
 * (`FOR UPDATE`) before it reads the balance, so concurrent movements serialise. The balance
 * itself is the sum of the entity's entries. `movements` counts the movements out (transfers,
 * redemptions): a redemption's id is derived from it, so a retried one is recognised.
 */
@Entity('credit_account')
export class CreditAccount {
  @PrimaryColumn({ type: 'uuid' })
  entityId: string;

  @Column({ type: 'int', default: 0 })
  movements: number;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('LegalEntity', 'entity_id')
  private readonly entity?: unknown;
}
