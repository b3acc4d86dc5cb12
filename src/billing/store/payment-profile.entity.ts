import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../database';
import { PROVIDER_ID } from './provider-id';

/** A card (or bank account) of an entity's at the provider: what to show of it, never its number. */
@Entity('billing_payment_profile')
@Index('billing_payment_profile_entity_idx', ['entityId', 'created'])
export class BillingPaymentProfile {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  entityId: string;

  @Column({ type: 'bigint', unique: true, transformer: PROVIDER_ID })
  providerId: number;

  @Column({ type: 'varchar', length: 40 })
  brand: string;

  @Column({ type: 'varchar', length: 4 })
  last4: string;

  @Column({ type: 'smallint', nullable: true })
  expirationMonth: number | null;

  @Column({ type: 'smallint', nullable: true })
  expirationYear: number | null;

  @Column({ type: 'boolean', default: false })
  isDefault: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('LegalEntity', 'entity_id')
  private readonly entity?: unknown;
}
