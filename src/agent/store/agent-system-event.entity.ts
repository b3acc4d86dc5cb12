import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/**
 * A system event for an organization's main conversation (a gateway hook's wake, a hook run's
 * summary): the next heartbeat gives the pending ones to the agent as `System: <text>` lines and
 * marks them consumed. An identical pending text is recorded once.
 */
@Entity('agent_system_event')
// Unique on (organization_id, md5(text)) while pending: made by the migration (a long text
// would not fit a btree entry of its own).
@Index('agent_system_event_pending_uq', { synchronize: false })
@Index('agent_system_event_org_idx', ['organizationId', 'created'])
export class AgentSystemEvent {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'text' })
  text: string;

  /** What recorded it: `wake`, a mapping's name, `hook:<name>`. */
  @Column({ type: 'varchar', length: 200 })
  source: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @Column({ type: 'timestamptz', nullable: true })
  consumedAt: Date | null;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
