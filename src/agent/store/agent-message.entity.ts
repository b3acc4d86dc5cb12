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

  /**
   * The person whose turn stored a `user` message (their words, their tools' results, their
   * decision on a step); null for the model's and for messages stored before it was kept.
   */
  @Column({ type: 'uuid', nullable: true })
  authorId: string | null;

  /** Their member name and role name then: the model reads other members' words as theirs. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  authorName: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  authorRole: string | null;

  /**
   * Beside `content`, block by block: the permission a block's data was produced under (a tool's
   * route permission), null for a block anyone in the conversation may read.
   */
  @Column({ type: 'jsonb', nullable: true })
  permissions: (string | null)[] | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ManyToOne(() => AgentConversation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  private readonly conversation?: AgentConversation;
}
