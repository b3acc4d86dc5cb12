import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { DomainError } from '../../common';
import { AgentConversation } from './agent-conversation.entity';
import { AgentMessage } from './agent-message.entity';

/** Messages of a conversation sent back to the model at most (the oldest fall out of the window). */
export const PROMPT_MESSAGES = 100;

/**
 * Messages a conversation keeps (the oldest are deleted past it): the prompt never reads further
 * back, and a shared main conversation would otherwise grow without end.
 */
export const STORED_MESSAGES = 1000;

export interface SeedMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** Conversations and their messages. */
@Injectable()
export class Conversations {
  constructor(
    @InjectRepository(AgentConversation)
    private readonly conversations: Repository<AgentConversation>,
    @InjectRepository(AgentMessage) private readonly messages: Repository<AgentMessage>,
  ) {}

  /**
   * The conversation a chat turn continues: the caller's own chat in this organization, or the
   * organization's main one (any member's). Anything else is unknown (404).
   */
  async continued(organizationId: string, userId: string, id: string): Promise<AgentConversation> {
    const conversation = await this.conversations.findOneBy({ id, organizationId });
    const mine = conversation?.kind === 'chat' && conversation.userId === userId;
    if (!conversation || !(mine || conversation.kind === 'main')) throw DomainError.notFound();
    return conversation;
  }

  /** A new chat of the caller, seeded with `history` when given. */
  async start(organizationId: string, userId: string, history: SeedMessage[] = []) {
    return this.conversations.manager.transaction(async (m) => {
      const conversation = await m.save(
        m.create(AgentConversation, { organizationId, userId, kind: 'chat', sessionKey: null }),
      );
      for (const message of history) {
        await m.insert(AgentMessage, {
          conversationId: conversation.id,
          role: message.role,
          content: [{ type: 'text', text: message.content }],
        });
      }
      return conversation;
    });
  }

  /** The organization's main conversation, made on first use. */
  async main(organizationId: string): Promise<AgentConversation> {
    await this.conversations
      .createQueryBuilder()
      .insert()
      .values({ organizationId, userId: null, kind: 'main', sessionKey: null })
      .orIgnore()
      .execute();
    return this.conversations.findOneByOrFail({ organizationId, kind: 'main' });
  }

  /** A gateway hook's conversation by its session key (the same key continues it). */
  async hook(organizationId: string, sessionKey: string): Promise<AgentConversation> {
    await this.conversations
      .createQueryBuilder()
      .insert()
      .values({ organizationId, userId: null, kind: 'hook', sessionKey })
      .orIgnore()
      .execute();
    return this.conversations.findOneByOrFail({ organizationId, kind: 'hook', sessionKey });
  }

  /** The sequence of the conversation's last message (0 when it has none). */
  async lastSequence(conversationId: string): Promise<string> {
    const [row] = (await this.messages.query(
      `SELECT COALESCE(MAX(sequence), 0)::text AS last FROM agent_message WHERE conversation_id = $1`,
      [conversationId],
    )) as { last: string }[];
    return row.last;
  }

  /** Forgets the messages after `sequence` (a heartbeat that had nothing to say). */
  async forgetAfter(conversationId: string, sequence: string): Promise<void> {
    await this.messages.query(
      `DELETE FROM agent_message WHERE conversation_id = $1 AND sequence > $2`,
      [conversationId, sequence],
    );
  }

  /** Where the conversation's replies were last posted in the team's chat. */
  async setLastChannel(conversationId: string, channel: string): Promise<void> {
    await this.conversations.update({ id: conversationId }, { lastChannel: channel });
  }

  /** The main conversation's id when it exists (the context shows it; it is made on first use). */
  async mainId(organizationId: string): Promise<string> {
    return (await this.main(organizationId)).id;
  }

  async append(conversationId: string, role: 'user' | 'assistant', content: unknown[]) {
    await this.messages.insert({ conversationId, role, content: content as never });
    await this.messages.query(
      `DELETE FROM agent_message WHERE conversation_id = $1 AND sequence < (
         SELECT sequence FROM agent_message WHERE conversation_id = $1
         ORDER BY sequence DESC OFFSET $2 LIMIT 1)`,
      [conversationId, STORED_MESSAGES - 1],
    );
  }

  /**
   * The latest messages, oldest first, for the prompt: at most PROMPT_MESSAGES, starting at a
   * message of the person (never at tool results whose calls fell out of the window), the roles
   * alternating.
   */
  async prompt(conversationId: string): Promise<Pick<AgentMessage, 'role' | 'content'>[]> {
    const latest = await this.messages.find({
      select: { role: true, content: true, sequence: true },
      where: { conversationId },
      order: { sequence: 'DESC' },
      take: PROMPT_MESSAGES,
    });
    const window = latest.reverse();
    const start = window.findIndex(
      (m) =>
        m.role === 'user' &&
        !(m.content as { type?: string }[]).some((block) => block.type === 'tool_result'),
    );
    if (start < 0) return [];
    // Turns of one role in a row (a decision noted after the model's answer, a refused round,
    // the next message) go as one: the roles alternate, and a round's results come first.
    const turns: Pick<AgentMessage, 'role' | 'content'>[] = [];
    for (const { role, content } of window.slice(start)) {
      const last = turns[turns.length - 1];
      if (last?.role === role) last.content = [...last.content, ...content];
      else turns.push({ role, content: [...content] });
    }
    return turns;
  }
}
