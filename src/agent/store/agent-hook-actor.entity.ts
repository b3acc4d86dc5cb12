import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/** The system account a gateway hook's runs act as in an organization (a member with Viewer). */
@Entity('agent_hook_actor')
export class AgentHookActor {
  @PrimaryColumn({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'uuid', unique: true })
  userId: string;

  @Column({ type: 'uuid' })
  memberId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;

  @ForeignKey('User', 'user_id')
  private readonly user?: unknown;
}
