import { Injectable } from '@nestjs/common';
import { UsersDirectory } from '../auth';
import { OrganizationsDirectory } from '../organizations';
import { ChatApiError } from './chat-api.error';
import { ChatClient } from './chat.client';
import { ChatProvisioning, ChatTeamRef } from './chat-provisioning.service';
import { ChatLinks } from './store/chat-links';
import { ChatLocks, memberLock } from './store/chat-locks';

/** The server's answers to removing someone who is not in the team, or the channel. */
const NOT_IN_TEAM = 'api.team.remove_user_from_team.missing.app_error';
const NOT_IN_CHANNEL = 'app.channel.get_member.missing.app_error';

/** Who may read what the agent posts: its replies carry cap-table facts. */
const READ_PERMISSION = 'canViewCapTable';

/**
 * Who is where on the messaging server: an organization's active members (people, not system
 * accounts) in its team; of them, those whose role holds `canViewCapTable` in its private
 * channel, and no one else but the service's own account. Decided from the organization's
 * current state, never from an event's copy of it, so a late or repeated event changes nothing.
 */
@Injectable()
export class ChatMembership {
  private bot?: Promise<string>;

  constructor(
    private readonly client: ChatClient,
    private readonly provisioning: ChatProvisioning,
    private readonly links: ChatLinks,
    private readonly locks: ChatLocks,
    private readonly users: UsersDirectory,
    private readonly organizations: OrganizationsDirectory,
  ) {}

  /**
   * One user's place: in the team while an active member, in the private channel while their
   * role also holds `canViewCapTable`; out of both otherwise. Under the member's lock, read and
   * applied together: of two changes in quick succession the later one's sync sees it.
   */
  async syncUser(organizationId: string, userId: string, team: ChatTeamRef): Promise<void> {
    await this.locks.run(memberLock(organizationId, userId), async () => {
      const user = await this.users.findById(userId);
      // A system account (a gateway hook's actor) is no person to chat with.
      if (!user || user.system) return;
      if (await this.isActiveMember(organizationId, userId)) {
        const chatUserId = await this.provisioning.chatUserOf(user);
        await this.client.addTeamMember(team.teamId, chatUserId);
        if (await this.mayRead(organizationId, userId)) {
          await this.client.addChannelMember(team.privateChannelId, chatUserId);
        } else {
          await this.leaveChannel(team, chatUserId);
        }
        return;
      }
      const link = await this.links.userOf(userId);
      if (!link) return;
      // Out of the team, the server takes them out of its channels too.
      await this.client.removeTeamMember(team.teamId, link.chatUserId).catch((err: unknown) => {
        if (!isApiError(err, NOT_IN_TEAM)) throw err;
      });
    });
  }

  /**
   * The whole private channel: whoever is in it and may not read the cap table leaves (people a
   * channel member added by hand, chat users the service does not know), the service's own
   * account excepted; mapped members who may read it and are in the team join. Run before every
   * post, so a role that lost the permission (a role's change is no member event) is out first.
   */
  async syncChannel(organizationId: string, team: ChatTeamRef): Promise<void> {
    const [readers, inChannel, inTeam, bot] = await Promise.all([
      this.organizations.membersPermitted(organizationId, READ_PERMISSION),
      this.client.channelMembers(team.privateChannelId),
      this.client.teamMembers(team.teamId),
      this.botId(),
    ]);
    const readerIds = new Set(readers.map((r) => r.userId));
    const teamIds = new Set(inTeam.map((m) => m.user_id));
    const mapped = await this.links.usersByChatIds([...new Set([...inChannel, ...teamIds])]);
    const allowed = new Set(mapped.filter((l) => readerIds.has(l.userId)).map((l) => l.chatUserId));
    for (const chatUserId of inChannel) {
      if (chatUserId !== bot && !allowed.has(chatUserId)) await this.leaveChannel(team, chatUserId);
    }
    for (const chatUserId of allowed) {
      if (!inChannel.includes(chatUserId) && teamIds.has(chatUserId)) {
        await this.client.addChannelMember(team.privateChannelId, chatUserId);
      }
    }
  }

  private async leaveChannel(team: ChatTeamRef, chatUserId: string): Promise<void> {
    await this.client
      .removeChannelMember(team.privateChannelId, chatUserId)
      .catch((err: unknown) => {
        if (!isApiError(err, NOT_IN_CHANNEL)) throw err;
      });
  }

  private async isActiveMember(organizationId: string, userId: string): Promise<boolean> {
    const ids = await this.organizations.memberIdsOfUser(userId);
    const members = await this.organizations.membersById(organizationId, ids);
    return [...members.values()].some((m) => m.status === 'active');
  }

  private async mayRead(organizationId: string, userId: string): Promise<boolean> {
    const permitting = await this.organizations.organizationsPermitting(userId, READ_PERMISSION);
    return permitting.includes(organizationId);
  }

  /** The service's own chat account (CHAT_ADMIN_TOKEN's), asked once. */
  private botId(): Promise<string> {
    this.bot ??= this.client.self().then(
      (me) => me.id,
      (err: unknown) => {
        this.bot = undefined;
        throw err;
      },
    );
    return this.bot;
  }
}

const isApiError = (err: unknown, id: string) => err instanceof ChatApiError && err.id === id;
