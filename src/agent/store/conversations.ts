import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccessContext, DomainError } from '../../common';
import { Env } from '../../config';
import { lockUntilCommit } from '../../database';
import type { PermissionName } from '../../organizations';
import { AgentConversation } from './agent-conversation.entity';
import { AgentMessage } from './agent-message.entity';

/** Messages of a conversation sent back to the model at most (the oldest fall out of the window). */
export const PROMPT_MESSAGES = 100;

/**
 * Messages a conversation keeps (the oldest are deleted past it): the prompt never reads further
 * back, and a shared main conversation would otherwise grow without end.
 */
export const STORED_MESSAGES = 1000;

/**
 * Who may take part in the organization's main conversation: it carries every member's questions
 * and their tools' answers about the cap table (issue 35).
 */
export const MAIN_CONVERSATION_PERMISSION: PermissionName = 'canViewCapTable';

export interface SeedMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** The person a `user` message is stored for, as the other members know them. */
export interface Author {
  authorId: string;
  authorName: string | null;
  authorRole: string | null;
}

/** What a stored message says of itself beside its blocks. */
export interface MessageMeta extends Partial<Author> {
  /** Block by block, the permission its data was produced under (null: none). */
  permissions?: (string | null)[];
}

/** A stored message as the prompt is built from it. */
export type StoredMessage = Pick<
  AgentMessage,
  'role' | 'content' | 'authorId' | 'authorName' | 'authorRole' | 'permissions'
>;

/** Conversations and their messages. */
@Injectable()
export class Conversations {
  constructor(
    @InjectRepository(AgentConversation)
    private readonly conversations: Repository<AgentConversation>,
    @InjectRepository(AgentMessage) private readonly messages: Repository<AgentMessage>,
    private readonly env: Env,
  ) {}

  /**
   * The conversation a chat turn continues: the caller's own chat in this organization, or the
   * organization's main one (403 to a member lacking MAIN_CONVERSATION_PERMISSION). Anything
   * else is unknown (404).
   */
  async continued(access: AccessContext, id: string): Promise<AgentConversation> {
    const conversation = await this.conversations.findOneBy({
      id,
      organizationId: access.organizationId!,
    });
    if (conversation?.kind === 'chat' && conversation.userId === access.userId) {
      return conversation;
    }
    if (conversation?.kind !== 'main') throw DomainError.notFound();
    if (!access.permissions.has(MAIN_CONVERSATION_PERMISSION)) {
      throw DomainError.forbidden(
        `the organization's main conversation is for members holding ${MAIN_CONVERSATION_PERMISSION}; start a conversation of your own`,
      );
    }
    return conversation;
  }

  /**
   * A new chat of the caller, seeded with `history` when given (the person's messages theirs).
   * A user keeps at most AGENT_MAX_CONVERSATIONS_PER_USER: their least recently used ones go
   * first, in the same transaction (under a lock of the user, so two at once keep the bound).
   */
  async start(
    organizationId: string,
    userId: string,
    history: SeedMessage[] = [],
    author: Partial<Author> = {},
  ): Promise<AgentConversation> {
    return this.conversations.manager.transaction(async (m) => {
      await lockUntilCommit(m, `agent:conversations:${userId}`);
      await m.query(
        `DELETE FROM agent_conversation WHERE id IN (
           SELECT id FROM agent_conversation WHERE user_id = $1 AND kind = 'chat'
           ORDER BY updated DESC, created DESC OFFSET $2)`,
        [userId, this.env.AGENT_MAX_CONVERSATIONS_PER_USER - 1],
      );
      const conversation = await m.save(
        m.create(AgentConversation, { organizationId, userId, kind: 'chat', sessionKey: null }),
      );
      for (const message of history) {
        await m.insert(AgentMessage, {
          conversationId: conversation.id,
          role: message.role,
          content: [{ type: 'text', text: message.content }],
          ...(message.role === 'user' ? { ...author, authorId: userId } : {}),
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

  /**
   * The main conversation's id for a caller who may take part in it (it is made on first use);
   * null for anyone else.
   */
  async mainIdFor(access: AccessContext): Promise<string | null> {
    if (!access.permissions.has(MAIN_CONVERSATION_PERMISSION)) return null;
    return (await this.main(access.organizationId!)).id;
  }

  /** Adds a message; the conversation counts as used now (see the daily clean-up). */
  async append(
    conversationId: string,
    role: 'user' | 'assistant',
    content: unknown[],
    meta: MessageMeta = {},
  ) {
    await this.messages.insert({
      conversationId,
      role,
      content: content as never,
      authorId: meta.authorId ?? null,
      authorName: meta.authorName ?? null,
      authorRole: meta.authorRole ?? null,
      permissions: meta.permissions ?? null,
    });
    await this.conversations.query(`UPDATE agent_conversation SET updated = now() WHERE id = $1`, [
      conversationId,
    ]);
    await this.messages.query(
      `DELETE FROM agent_message WHERE conversation_id = $1 AND sequence < (
         SELECT sequence FROM agent_message WHERE conversation_id = $1
         ORDER BY sequence DESC OFFSET $2 LIMIT 1)`,
      [conversationId, STORED_MESSAGES - 1],
    );
  }

  /**
   * The latest messages, oldest first, that a prompt may hold: at most PROMPT_MESSAGES,
   * starting at a message of a person (never at tool results whose calls fell out of the
   * window). The prompt (chat/prompt.ts) decides what of them goes to the model.
   */
  async window(conversationId: string): Promise<StoredMessage[]> {
    const latest = await this.messages.find({
      select: {
        role: true,
        content: true,
        sequence: true,
        authorId: true,
        authorName: true,
        authorRole: true,
        permissions: true,
      },
      where: { conversationId },
      order: { sequence: 'DESC' },
      take: PROMPT_MESSAGES,
    });
    const window = latest.reverse();
    const start = window.findIndex(isPersonMessage);
    return start < 0 ? [] : window.slice(start);
  }
}

/** A message of a person (their words or a decision), not a round's tool results. */
export const isPersonMessage = (m: Pick<AgentMessage, 'role' | 'content'>) =>
  m.role === 'user' &&
  !(m.content as { type?: string }[]).some((block) => block.type === 'tool_result');
