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

/**
 * One message of a conversation as the Messages API takes it back: `user` (the person's text, or
 * the tool results of a round) or `assistant` (text and tool calls), its content blocks as sent.
 */
@Entity('agent_message')
@Index('agent_message_conversation_idx', ['conversationId', 'sequence'])
export class AgentMessage {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Order within the conversation. */
  @Column({ type: 'bigint', generated: 'increment' })
  sequence: string;

  @Column({ type: 'uuid' })
  conversationId: string;

  @Column({ type: 'varchar', length: 10 })
  role: 'user' | 'assistant';

  /** Content blocks (`text`, `tool_use`, `tool_result`). */
  @Column({ type: 'jsonb' })
  content: unknown[];

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ManyToOne(() => AgentConversation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  private readonly conversation?: AgentConversation;
}
