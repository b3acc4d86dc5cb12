import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/**
 * Where an organization's seat counts stand with the provider: each count change asks for a push
 * (`requestedSeq` + 1); a push that read `requestedSeq` = n stores `pushedSeq` = n. Behind while
 * `requestedSeq > pushedSeq` (the sweep re-queues those).
 */
@Entity('billing_count_sync')
export class CountSync {
  @PrimaryColumn('uuid')
  organizationId: string;

  @Column({ type: 'integer', default: 0 })
  requestedSeq: number;

  @Column({ type: 'integer', default: 0 })
  pushedSeq: number;

  /** The counts the provider has (pushed, or carried by the signup): an unchanged push is skipped. */
  @Column({ type: 'integer', nullable: true })
  pushedMembers: number | null;

  @Column({ type: 'integer', nullable: true })
  pushedShareholders: number | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
