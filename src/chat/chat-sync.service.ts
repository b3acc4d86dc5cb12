import { Injectable, Logger } from '@nestjs/common';
import { UsersDirectory } from '../auth';
import { DomainError } from '../common';
import { ChatConfig } from '../config';
import { OrganizationsDirectory } from '../organizations';
import { ChatAccountNotAdoptable, ChatApiError } from './chat-api.error';
import { ChatClient } from './chat.client';
import { ChatMembership } from './chat-membership.service';
import { ChatProvisioning } from './chat-provisioning.service';
import { describe, requireConfigured } from './chat-sessions.service';
import { ChatLinks } from './store/chat-links';

/**
 * Keeps an organization's team in step with its members: every active member with a user
 * account is in it; a team member mapped to a user who is no longer one leaves it. Chat users
 * the service did not map (the admin bot, people added by hand) are never removed from the team;
 * the private channel keeps only those who may read the cap table (ChatMembership).
 */
@Injectable()
export class ChatSync {
  private readonly logger = new Logger('Chat');

  constructor(
    private readonly env: ChatConfig,
    private readonly client: ChatClient,
    private readonly provisioning: ChatProvisioning,
    private readonly membership: ChatMembership,
    private readonly links: ChatLinks,
    private readonly users: UsersDirectory,
    private readonly organizations: OrganizationsDirectory,
  ) {}

  /** `POST /sync-org/:orgId`: the whole team; answers the members in it after the run. */
  async syncOrganization(organizationId: string): Promise<{ synced: number }> {
    requireConfigured(this.env);
    const organization = await this.organizations.organization(organizationId);
    if (!organization) throw DomainError.notFound('no such organization');
    try {
      const team = await this.provisioning.teamOf(organization);
      const present = new Set(
        (await this.client.teamMembers(team.teamId))
          .filter((m) => !m.delete_at)
          .map((m) => m.user_id),
      );
      const members = (await this.organizations.currentMembers(organizationId)).filter(
        (m) => m.status === 'active' && m.userId,
      );
      let synced = 0;
      for (const member of members) {
        const user = await this.users.findById(member.userId!);
        // A system account (a gateway hook's actor) is no person to chat with.
        if (!user || user.system) continue;
        const chatUserId = await this.provisioning.chatUserOf(user).catch((err: unknown) => {
          if (!(err instanceof ChatAccountNotAdoptable)) throw err;
          this.logger.warn(`chat sync skips user ${user.id}: ${err.message}`);
          return null;
        });
        if (!chatUserId) continue;
        if (!present.has(chatUserId)) await this.client.addTeamMember(team.teamId, chatUserId);
        synced++;
      }
      const stay = new Set(members.map((m) => m.userId));
      for (const link of await this.links.usersByChatIds([...present])) {
        if (!stay.has(link.userId))
          await this.client.removeTeamMember(team.teamId, link.chatUserId);
      }
      await this.membership.syncChannel(organizationId, team);
      return { synced };
    } catch (err) {
      if (!(err instanceof ChatApiError)) throw err;
      this.logger.error(`chat sync of organization ${organizationId} failed: ${describe(err)}`);
      throw DomainError.keyed(
        'chatSyncFailed',
        'the messaging server could not be brought in step',
      );
    }
  }

  /**
   * The private channel's members after a role changed, from the organization's current state
   * (run twice or late, it leaves the same result). Only organizations that have a team.
   */
  async syncChannel(organizationId: string): Promise<void> {
    if (!this.env.chatConfigured) return;
    const organization = await this.organizations.organization(organizationId);
    if (!organization) return;
    const team = await this.provisioning.existingTeamOf(organization);
    if (team) await this.membership.syncChannel(organizationId, team);
  }

  /**
   * One user's membership after a `member.*` event, from the organization's current state (the
   * event only says whom to look at). Only organizations that have a team: none is made for an
   * event.
   */
  async syncMember(organizationId: string, userId: string | null): Promise<void> {
    if (!this.env.chatConfigured || !userId) return;
    const organization = await this.organizations.organization(organizationId);
    if (!organization) return;
    const team = await this.provisioning.existingTeamOf(organization);
    if (!team) return;
    await this.membership.syncUser(organizationId, userId, team).catch((err: unknown) => {
      // Retrying would not change the server's account: the user stays out of the team.
      if (!(err instanceof ChatAccountNotAdoptable)) throw err;
      this.logger.warn(`chat sync skips user ${userId}: ${err.message}`);
    });
  }
}
