import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';
import { PROVIDER_ID } from './provider-id';

/** An entity as the billing provider's customer (the customer's `reference` is the entity id). */
@Entity('billing_customer')
export class CustomerLink {
  @PrimaryColumn('uuid')
  entityId: string;

  @Column({ type: 'bigint', unique: true, transformer: PROVIDER_ID })
  providerCustomerId: number;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('LegalEntity', 'entity_id')
  private readonly entity?: unknown;
}
