import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ForeignKey } from '../../database';

/** `chat`: one user's; `main`: the organization's shared one; `hook`: a gateway hook's run. */
export const CONVERSATION_KINDS = ['chat', 'main', 'hook'] as const;
export type ConversationKind = (typeof CONVERSATION_KINDS)[number];

/** A conversation with the agent about one organization. */
@Entity('agent_conversation')
@Index('agent_conversation_main_uq', ['organizationId'], { unique: true, where: `kind = 'main'` })
@Index('agent_conversation_hook_uq', ['organizationId', 'sessionKey'], {
  unique: true,
  where: `kind = 'hook'`,
})
@Index('agent_conversation_user_idx', ['userId', 'organizationId'])
@Index('agent_conversation_updated_idx', ['updated'])
export class AgentConversation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  /** The user of a `chat` conversation; null for `main` and `hook` ones. */
  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  @Column({ type: 'varchar', length: 10 })
  kind: ConversationKind;

  /** A hook conversation's key (`hook:<uuid>` by default). */
  @Column({ type: 'varchar', length: 200, nullable: true })
  sessionKey: string | null;

  /** The team channel its replies were last posted to (a main conversation's deliveries). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  lastChannel: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  /** Its last use: a message added (the daily clean-up deletes it once idle long enough). */
  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
