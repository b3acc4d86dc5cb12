import { Injectable } from '@nestjs/common';
import { Env } from '../config';
import { ChatClient } from './chat.client';
import { ChatLinks } from './store/chat-links';

/** Where a post went. */
export interface ChatPostRef {
  channel: string;
  postId: string;
}

/**
 * Posts to a channel of an organization's team as the service's bot (the gateway hooks deliver
 * the agent's replies with it). Nothing is posted while chat is off, the organization has no team
 * yet, or the channel does not exist: the answer is then null.
 */
@Injectable()
export class ChatPosting {
  constructor(
    private readonly env: Env,
    private readonly client: ChatClient,
    private readonly links: ChatLinks,
  ) {}

  /** The channel a post goes to when none is named: the first default channel. */
  get defaultChannel(): string {
    return this.env.CHAT_DEFAULT_CHANNELS[0] ?? 'town-square';
  }

  async post(
    organizationId: string,
    message: string,
    channel = this.defaultChannel,
  ): Promise<ChatPostRef | null> {
    if (!this.env.chatConfigured) return null;
    const team = await this.links.teamOf(organizationId);
    if (!team) return null;
    const found = await this.client.channelByName(team.teamId, channel);
    if (!found) return null;
    const post = await this.client.createPost(found.id, message);
    return { channel, postId: post.id };
  }
}
