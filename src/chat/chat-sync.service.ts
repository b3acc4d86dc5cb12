import { Injectable, Logger } from '@nestjs/common';
import { UsersDirectory } from '../auth';
import { DomainError } from '../common';
import { Env } from '../config';
import { OrganizationsDirectory } from '../organizations';
import { ChatApiError } from './chat-api.error';
import { ChatClient } from './chat.client';
import { ChatProvisioning } from './chat-provisioning.service';
import { describe, requireConfigured } from './chat-sessions.service';
import { ChatLinks } from './store/chat-links';

/** The server's answer to removing someone who is not in the team. */
const NOT_A_MEMBER = 'api.team.remove_user_from_team.missing.app_error';

/** A member as the sync reads it (a member event's object, or the directory's facts). */
export interface SyncedMember {
  userId: string | null;
  status: string;
}

/**
 * Keeps an organization's team in step with its members: every active member with a user
 * account is in it; a team member mapped to a user who is no longer one leaves it. Chat users
 * the service did not map (the admin bot, people added by hand) are never removed.
 */
@Injectable()
export class ChatSync {
  private readonly logger = new Logger('Chat');

  constructor(
    private readonly env: Env,
    private readonly client: ChatClient,
    private readonly provisioning: ChatProvisioning,
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
        const chatUserId = await this.provisioning.chatUserOf(user);
        if (!present.has(chatUserId)) await this.client.addTeamMember(team.teamId, chatUserId);
        synced++;
      }
      const stay = new Set(members.map((m) => m.userId));
      for (const link of await this.links.usersByChatIds([...present])) {
        if (!stay.has(link.userId))
          await this.client.removeTeamMember(team.teamId, link.chatUserId);
      }
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
   * One member's change (a `member.*` event): in the team while active with an account, out of
   * it otherwise. Only organizations that have a team: none is made for an event.
   */
  async syncMember(organizationId: string, member: SyncedMember): Promise<void> {
    if (!this.env.chatConfigured || !member.userId) return;
    const team = await this.links.teamOf(organizationId);
    if (!team) return;
    if (member.status === 'active') {
      const user = await this.users.findById(member.userId);
      if (!user || user.system) return;
      const chatUserId = await this.provisioning.chatUserOf(user);
      await this.client.addTeamMember(team.teamId, chatUserId);
      return;
    }
    const link = await this.links.userOf(member.userId);
    if (!link) return;
    await this.client.removeTeamMember(team.teamId, link.chatUserId).catch((err: unknown) => {
      // Never in the team: what the event asks for already holds.
      if (!(err instanceof ChatApiError && err.id === NOT_A_MEMBER)) throw err;
    });
  }
}
