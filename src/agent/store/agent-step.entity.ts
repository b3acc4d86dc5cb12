import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { AgentConversation } from './agent-conversation.entity';

export const STEP_STATUSES = ['pending', 'executed', 'rejected', 'failed'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** A write or destructive tool call waiting for (or decided by) a person's confirmation. */
@Entity('agent_step')
@Index('agent_step_conversation_idx', ['conversationId', 'created'])
export class AgentStep {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  conversationId: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  /** Who the model proposed it to. */
  @Column({ type: 'uuid', nullable: true })
  proposedBy: string | null;

  /** The model's `tool_use` id. */
  @Column({ type: 'varchar', length: 100 })
  toolUseId: string;

  @Column({ type: 'varchar', length: 60 })
  tool: string;

  @Column({ type: 'varchar', length: 12 })
  kind: 'write' | 'destructive';

  @Column({ type: 'jsonb' })
  input: Record<string, unknown>;

  @Column({ type: 'varchar', length: 500 })
  summary: string;

  @Column({ type: 'varchar', length: 10 })
  status: StepStatus;

  @Column({ type: 'uuid', nullable: true })
  decidedBy: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  decidedAt: Date | null;

  /** The route's answer when run, `{status, body}`. */
  @Column({ type: 'jsonb', nullable: true })
  result: unknown;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  error: string | null;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ManyToOne(() => AgentConversation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  private readonly conversation?: AgentConversation;
}
