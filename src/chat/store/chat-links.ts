import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChatTeamLink } from './chat-team.entity';
import { ChatToken } from './chat-token.entity';
import { ChatUserLink } from './chat-user.entity';

/**
 * The mappings to the messaging server (users, tokens, teams). Each write is a statement of its
 * own: no transaction is open while the server is called (ChatLocks keep provisioning single).
 */
@Injectable()
export class ChatLinks {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get manager() {
    return this.dataSource.manager;
  }

  userOf(userId: string): Promise<ChatUserLink | null> {
    return this.manager.findOneBy(ChatUserLink, { userId });
  }

  async usersByChatIds(chatUserIds: string[]): Promise<ChatUserLink[]> {
    if (!chatUserIds.length) return [];
    return this.manager
      .createQueryBuilder(ChatUserLink, 'u')
      .where('u.chat_user_id = ANY(:ids)', { ids: chatUserIds })
      .getMany();
  }

  byChatUser(chatUserId: string): Promise<ChatUserLink | null> {
    return this.manager.findOneBy(ChatUserLink, { chatUserId });
  }

  /**
   * Maps the user to `chatUserId` unless a mapping exists (made meanwhile); answers the mapping
   * that stands, null when the chat user is another user's already.
   */
  async addUser(userId: string, chatUserId: string): Promise<ChatUserLink | null> {
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(ChatUserLink)
      .values({ userId, chatUserId })
      .orIgnore()
      .execute();
    return this.userOf(userId);
  }

  tokenOf(userId: string): Promise<ChatToken | null> {
    return this.manager.findOneBy(ChatToken, { userId });
  }

  async saveToken(userId: string, tokenId: string, tokenCiphertext: string) {
    await this.manager.upsert(ChatToken, { userId, tokenId, tokenCiphertext }, ['userId']);
  }

  /** Forgets the token, unless another has replaced it since `tokenId` was read. */
  async deleteToken(userId: string, tokenId: string): Promise<void> {
    await this.manager.delete(ChatToken, { userId, tokenId });
  }

  teamOf(organizationId: string): Promise<ChatTeamLink | null> {
    return this.manager.findOneBy(ChatTeamLink, { organizationId });
  }

  byTeam(teamId: string): Promise<ChatTeamLink | null> {
    return this.manager.findOneBy(ChatTeamLink, { teamId });
  }

  /**
   * The organization's row, claimed with the names its team and private channel will have
   * before either is made (the first claim stands).
   */
  async claimTeam(
    organizationId: string,
    teamName: string,
    privateChannelName: string,
  ): Promise<ChatTeamLink> {
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(ChatTeamLink)
      .values({ organizationId, teamName, privateChannelName })
      .orIgnore()
      .execute();
    return (await this.teamOf(organizationId))!;
  }

  /** Records what was made under the claimed names (the server's names are unique: one each). */
  async completeTeam(organizationId: string, teamId: string, privateChannelId: string) {
    await this.manager.update(ChatTeamLink, { organizationId }, { teamId, privateChannelId });
  }
}
