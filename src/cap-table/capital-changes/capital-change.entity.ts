import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/** Money a member's entity put into the company, or took out of it. */
@Entity('capital_change')
@Index('capital_change_org_idx', ['organizationId', 'date'])
@Index('capital_change_entity_idx', ['entityId'])
export class CapitalChange {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'uuid' })
  memberId: string;

  @Column({ type: 'uuid' })
  entityId: string;

  @Column({ type: 'date' })
  date: string;

  @Column({ type: 'numeric', precision: 38, scale: 10 })
  amount: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 20 })
  type: 'contribution' | 'distribution';

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;

  @ForeignKey('Member', 'member_id')
  private readonly member?: unknown;
}
