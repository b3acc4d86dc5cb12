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

  /**
   * The push under way, if any, and until when it may run: one push per organization at a time
   * across instances, without a lock held across the provider's call. A push that outlives its
   * lease (longer than its call can last) no longer counts as holding it.
   */
  @Column({ type: 'uuid', nullable: true })
  pushLease: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  pushLeaseUntil: Date | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
