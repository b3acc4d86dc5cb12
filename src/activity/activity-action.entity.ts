import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One entry of an organization's activity log (spec 4.9): written by users or derived from events. */
@Entity('activity_action')
@Index('activity_action_org_created_idx', ['organizationId', 'created', 'id'])
export class ActivityAction {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 100 })
  type: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  @Column({ type: 'jsonb', default: {} })
  metadata: Record<string, unknown>;

  /** The domain event this entry was derived from, if any (one entry per event). */
  @Index('activity_action_event_uq', { unique: true, where: 'event_id IS NOT NULL' })
  @Column({ type: 'varchar', length: 40, nullable: true })
  eventId: string | null;

  /** The permission a reader's role needs to see the entry (organizations' event-audience.ts). */
  @Column({ type: 'varchar', length: 60 })
  audiencePermission: string;

  /** Members who see the entry without that permission: those it is about, as its records' holders. */
  @Column({ type: 'uuid', array: true, default: () => "'{}'" })
  audienceMemberIds: string[];

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;
}
