import { Injectable } from '@nestjs/common';
import type { UserSummary } from '../auth';
import { SecretBox } from '../common';
import { ChatConfig } from '../config';
import { ChatAccountNotAdoptable, ChatApiError } from './chat-api.error';
import { ChatClient } from './chat.client';
import {
  newPrivateChannelName,
  newTeamName,
  randomPassword,
  retryUsername,
  usernameFor,
} from './chat-names';
import type { ChatChannel, ChatTeam, ChatUser } from './chat.wire';
import { ChatLinks } from './store/chat-links';
import { ChatLocks, organizationLock, userLock } from './store/chat-locks';
import type { ChatTeamLink } from './store/chat-team.entity';

const USERNAME_TAKEN = 'app.user.save.username_exists.app_error';
const EMAIL_TAKEN = 'app.user.save.email_exists.app_error';
const TEAM_TAKEN = 'app.team.save.existing.app_error';
const CHANNEL_TAKEN = 'store.sql_channel.save_channel.exists.app_error';
/** Tries of another username after the first is taken. */
const USERNAME_RETRIES = 3;
const PRIVATE_CHANNEL_DISPLAY_NAME = 'Cap table';

export interface ChatTeamRef {
  teamId: string;
  teamName: string;
  /** The channel of the agent's replies, for members who may read the cap table. */
  privateChannelId: string;
  privateChannelName: string;
}

/** The associated data a user's sealed token is bound to (a copied row opens for no one else). */
const tokenAad = (userId: string) => `chat-token:${userId}`;

/** A system admin's account is never taken over: its token would give the whole server. */
const isSystemAdmin = (user: ChatUser) => user.roles.split(/\s+/).includes('system_admin');

/**
 * Makes or finds what a user or an organization needs on the messaging server, each step
 * idempotent and under its lock (ChatLocks: a user's, an organization's; never both at once), so
 * concurrent calls make one chat user, one token, one team with one private channel. No
 * database transaction is open while the server is called: each mapping is written once the
 * server has answered, and a repeated step finds what the last one made.
 */
@Injectable()
export class ChatProvisioning {
  constructor(
    private readonly client: ChatClient,
    private readonly links: ChatLinks,
    private readonly locks: ChatLocks,
    private readonly box: SecretBox,
    private readonly env: ChatConfig,
  ) {}

  /** The user's chat user id: mapped, else adopted by e-mail (never a system admin's), else created. */
  async chatUserOf(user: UserSummary): Promise<string> {
    const link = await this.links.userOf(user.id);
    if (link) return link.chatUserId;
    return this.locks.run(userLock(user.id), () => this.ensureUser(user));
  }

  /** The user's chat user and a working access token for it (the stored one, or a new one). */
  userWithToken(user: UserSummary): Promise<{ chatUserId: string; token: string }> {
    return this.locks.run(userLock(user.id), async () => {
      const chatUserId = await this.ensureUser(user);
      return { chatUserId, token: await this.ensureToken(user.id, chatUserId) };
    });
  }

  /** The organization's team (type `I`) with the default channels and its private channel. */
  async teamOf(organization: { id: string; name: string }): Promise<ChatTeamRef> {
    const link = await this.links.teamOf(organization.id);
    if (link && complete(link)) return refOf(link);
    return this.locks.run(organizationLock(organization.id), () => this.ensureTeam(organization));
  }

  /**
   * The organization's team when one was made (a session or a sync makes it; a post or a member
   * event does not), its private channel made if it still lacks one; null otherwise.
   */
  async existingTeamOf(organization: { id: string; name: string }): Promise<ChatTeamRef | null> {
    const link = await this.links.teamOf(organization.id);
    if (!link?.teamId) return null;
    return this.teamOf(organization);
  }

  private async ensureTeam(organization: { id: string; name: string }): Promise<ChatTeamRef> {
    const link =
      (await this.links.teamOf(organization.id)) ??
      (await this.links.claimTeam(organization.id, newTeamName(), newPrivateChannelName()));
    if (complete(link)) return refOf(link);
    const team = await this.ensureTeamNamed(link.teamName, organization.name);
    const channel = await this.ensurePrivateChannel(team.id, link.privateChannelName);
    await this.links.completeTeam(organization.id, team.id, channel.id);
    return {
      teamId: team.id,
      teamName: link.teamName,
      privateChannelId: channel.id,
      privateChannelName: link.privateChannelName,
    };
  }

  /**
   * The team of our stored name: only the service knew it before the team existed, so whoever
   * made it was the service (an earlier attempt that stopped half-way).
   */
  private async ensureTeamNamed(name: string, title: string): Promise<ChatTeam> {
    const team =
      (await this.client.teamByName(name)) ??
      (await this.client
        .createTeam({ name, display_name: title.slice(0, 64), type: 'I' })
        .catch(async (err: unknown) => {
          // Made meanwhile by a holder whose lock had lapsed: the server keeps names unique.
          const made = isApiError(err, TEAM_TAKEN) ? await this.client.teamByName(name) : null;
          if (!made) throw err;
          return made;
        }));
    // The server makes town-square and off-topic itself; the others are ours to make.
    for (const channel of this.env.CHAT_DEFAULT_CHANNELS) {
      if (await this.client.channelByName(team.id, channel)) continue;
      await this.client
        .createChannel({
          team_id: team.id,
          name: channel,
          display_name: displayName(channel),
          type: 'O',
        })
        .catch((err: unknown) => {
          if (!isApiError(err, CHANNEL_TAKEN)) throw err;
        });
    }
    return team;
  }

  private async ensurePrivateChannel(teamId: string, name: string): Promise<ChatChannel> {
    const create = () =>
      this.client.createChannel({
        team_id: teamId,
        name,
        display_name: PRIVATE_CHANNEL_DISPLAY_NAME,
        type: 'P',
      });
    const channel =
      (await this.client.channelByName(teamId, name)) ??
      (await create().catch(async (err: unknown) => {
        const made = isApiError(err, CHANNEL_TAKEN)
          ? await this.client.channelByName(teamId, name)
          : null;
        if (!made) throw err;
        return made;
      }));
    if (channel.type !== 'P') {
      throw new ChatApiError(0, 'not_private', `the channel ${name} of team ${teamId} is public`);
    }
    return channel;
  }

  private async ensureUser(user: UserSummary): Promise<string> {
    const link = await this.links.userOf(user.id);
    if (link) return link.chatUserId;
    const found = await this.client.userByEmail(user.email);
    const chatUser = found ? adoptable(found) : await this.createUser(user);
    const stands = await this.links.addUser(user.id, chatUser.id);
    if (!stands) {
      throw new ChatApiError(
        0,
        'already_mapped',
        `the chat user ${chatUser.id} with this e-mail address is mapped to another user`,
      );
    }
    return stands.chatUserId;
  }

  private async createUser(user: UserSummary): Promise<ChatUser> {
    const base = usernameFor(user.email);
    const [first, ...rest] = (user.name ?? '').trim().split(/\s+/);
    for (let retry = 0; ; retry++) {
      try {
        return await this.client.createUser({
          email: user.email,
          username: retry === 0 ? base : retryUsername(base),
          password: randomPassword(),
          first_name: (first ?? '').slice(0, 64),
          last_name: rest.join(' ').slice(0, 64),
        });
      } catch (err) {
        if (!(err instanceof ChatApiError)) throw err;
        if (err.id === USERNAME_TAKEN && retry < USERNAME_RETRIES) continue;
        // Made meanwhile (by hand, or by a server that had not indexed it yet): adopt it.
        const made = err.id === EMAIL_TAKEN ? await this.client.userByEmail(user.email) : null;
        if (made) return adoptable(made);
        throw err;
      }
    }
  }

  private async ensureToken(userId: string, chatUserId: string) {
    const stored = await this.links.tokenOf(userId);
    if (stored) {
      const token = this.box.decrypt(stored.tokenCiphertext, tokenAad(userId));
      try {
        await this.client.me(token);
        return token;
      } catch (err) {
        if (!(err instanceof ChatApiError) || err.status !== 401) throw err;
      }
    }
    const created = await this.client.createToken(chatUserId, 'Ledgerline');
    await this.links.saveToken(
      userId,
      created.id,
      this.box.encrypt(created.token, tokenAad(userId)),
    );
    // The old one answered 401 (revoked or expired): revoking it is tidiness, not a condition.
    if (stored) await this.client.revokeToken(stored.tokenId).catch(() => undefined);
    return created.token;
  }

  /** Opens the user's stored token (token health); null when there is none. */
  async storedToken(userId: string): Promise<{ tokenId: string; token: string } | null> {
    const stored = await this.links.tokenOf(userId);
    if (!stored) return null;
    return {
      tokenId: stored.tokenId,
      token: this.box.decrypt(stored.tokenCiphertext, tokenAad(userId)),
    };
  }
}

function adoptable(user: ChatUser): ChatUser {
  if (isSystemAdmin(user)) throw new ChatAccountNotAdoptable(user.id);
  return user;
}

const complete = (link: ChatTeamLink) => !!link.teamId && !!link.privateChannelId;

const refOf = (link: ChatTeamLink): ChatTeamRef => ({
  teamId: link.teamId!,
  teamName: link.teamName,
  privateChannelId: link.privateChannelId!,
  privateChannelName: link.privateChannelName,
});

const isApiError = (err: unknown, id: string) => err instanceof ChatApiError && err.id === id;

/** `off-topic` → `Off-Topic`: the name a channel the server did not make is shown with. */
const displayName = (channel: string) =>
  channel.replace(/(^|[-_])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
