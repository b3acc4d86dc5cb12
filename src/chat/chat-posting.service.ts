import { Injectable } from '@nestjs/common';
import { ChatConfig } from '../config';
import { OrganizationsDirectory } from '../organizations';
import { ChatClient } from './chat.client';
import { ChatMembership } from './chat-membership.service';
import { ChatProvisioning } from './chat-provisioning.service';

/** Where a post went. */
export interface ChatPostRef {
  /** The private channel's name. */
  channel: string;
  postId: string;
}

/**
 * Posts the agent's replies (gateway hooks, heartbeats) as the service's bot, to the one place
 * fit for them: they carry cap-table facts, so only the private channel of the organization's
 * team, whose members are brought in step (those whose role holds `canViewCapTable`, and the
 * bot) right before each post. Never to a channel Shareholders join, whatever channel a hook
 * names. Nothing is posted while chat is off or the organization has no team yet: null then.
 */
@Injectable()
export class ChatPosting {
  constructor(
    private readonly env: ChatConfig,
    private readonly client: ChatClient,
    private readonly provisioning: ChatProvisioning,
    private readonly membership: ChatMembership,
    private readonly organizations: OrganizationsDirectory,
  ) {}

  async post(organizationId: string, message: string): Promise<ChatPostRef | null> {
    if (!this.env.chatConfigured) return null;
    const organization = await this.organizations.organization(organizationId);
    if (!organization) return null;
    const team = await this.provisioning.existingTeamOf(organization);
    if (!team) return null;
    // A member may have been added by hand, or a role may have lost the permission, since.
    await this.membership.syncChannel(organizationId, team);
    const post = await this.client.createPost(team.privateChannelId, message);
    return { channel: team.privateChannelName, postId: post.id };
  }
}
