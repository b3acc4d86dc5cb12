import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A domain event, written in the same transaction as the change that caused it. The relay moves
 * committed rows into the queues of their type's routes (`event_route`); `relayed_at` marks when
 * one was last handed over (the re-relay hands over again an event a queue did not consume).
 */
@Entity('outbox_event')
@Index('outbox_event_pending_idx', ['sequence'], { where: 'relayed_at IS NULL' })
@Index('outbox_event_relayed_idx', ['relayedAt'], { where: 'relayed_at IS NOT NULL' })
// The event list of an organization, newest first, and the daily clean-up by age.
@Index('outbox_event_organization_idx', ['organizationId', 'sequence'])
@Index('outbox_event_created_idx', ['created'])
export class OutboxEvent {
  /** `evt_` + 32 hex characters: the id consumers deduplicate by (spec section 6). */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  /** Commit-order tie breaker, so the relay hands events over in the order they were written. */
  @Column({ type: 'bigint', generated: 'increment' })
  sequence: string;

  @Column({ type: 'varchar', length: 100 })
  type: string;

  @Column({ type: 'uuid', nullable: true })
  organizationId: string | null;

  @Column({ type: 'uuid', nullable: true })
  actorUserId: string | null;

  /** `{object, previous_attributes}`: the `data` of the envelope. */
  @Column({ type: 'jsonb' })
  data: { object: Record<string, unknown>; previous_attributes: Record<string, unknown> };

  /** What happened, in words, for the activity log ("member a@b.c: role Viewer -> Admin"). */
  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** Members the event is about who may see it as the holder of its records (DomainEvent). */
  @Column({ type: 'uuid', array: true, default: () => "'{}'" })
  subjectMemberIds: string[];

  @Column({ type: 'varchar', length: 20 })
  apiVersion: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @Column({ type: 'timestamptz', nullable: true })
  relayedAt: Date | null;
}
