import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { lockUntilCommit } from '../../database';
import { ChatTeamLink } from './chat-team.entity';
import { ChatToken } from './chat-token.entity';
import { ChatUserLink } from './chat-user.entity';

/**
 * The mappings to the messaging server (users, tokens, teams), and the locks that keep their
 * provisioning single across requests and instances: an organization's first, then a user's
 * (always in that order, so two of them never wait on each other).
 */
@Injectable()
export class ChatLinks {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in a transaction holding the advisory locks of `keys` (in the order given). */
  locked<T>(keys: string[], work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (m) => {
      for (const key of keys) await lockUntilCommit(m, key);
      return work(m);
    });
  }

  userOf(userId: string, m?: EntityManager): Promise<ChatUserLink | null> {
    return (m ?? this.dataSource.manager).findOneBy(ChatUserLink, { userId });
  }

  async usersByChatIds(chatUserIds: string[]): Promise<ChatUserLink[]> {
    if (!chatUserIds.length) return [];
    return this.dataSource.manager
      .createQueryBuilder(ChatUserLink, 'u')
      .where('u.chat_user_id = ANY(:ids)', { ids: chatUserIds })
      .getMany();
  }

  byChatUser(chatUserId: string): Promise<ChatUserLink | null> {
    return this.dataSource.manager.findOneBy(ChatUserLink, { chatUserId });
  }

  async addUser(m: EntityManager, userId: string, chatUserId: string): Promise<void> {
    await m.insert(ChatUserLink, { userId, chatUserId });
  }

  tokenOf(userId: string, m?: EntityManager): Promise<ChatToken | null> {
    return (m ?? this.dataSource.manager).findOneBy(ChatToken, { userId });
  }

  async saveToken(m: EntityManager, userId: string, tokenId: string, tokenCiphertext: string) {
    await m.upsert(ChatToken, { userId, tokenId, tokenCiphertext }, ['userId']);
  }

  /** Forgets the token, unless another has replaced it since `tokenId` was read. */
  async deleteToken(userId: string, tokenId: string): Promise<void> {
    await this.dataSource.manager.delete(ChatToken, { userId, tokenId });
  }

  teamOf(organizationId: string, m?: EntityManager): Promise<ChatTeamLink | null> {
    return (m ?? this.dataSource.manager).findOneBy(ChatTeamLink, { organizationId });
  }

  byTeam(teamId: string): Promise<ChatTeamLink | null> {
    return this.dataSource.manager.findOneBy(ChatTeamLink, { teamId });
  }

  async addTeam(m: EntityManager, organizationId: string, teamId: string, teamName: string) {
    await m.insert(ChatTeamLink, { organizationId, teamId, teamName });
  }
}

export const organizationLock = (organizationId: string) => `chat:organization:${organizationId}`;
export const userLock = (userId: string) => `chat:user:${userId}`;
