import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { UserSummary } from '../auth';
import { SecretBox } from '../common';
import { Env } from '../config';
import { ChatApiError } from './chat-api.error';
import { ChatClient } from './chat.client';
import { randomPassword, retryUsername, teamNameFor, usernameFor } from './chat-names';
import { ChatLinks, organizationLock, userLock } from './store/chat-links';

const USERNAME_TAKEN = 'app.user.save.username_exists.app_error';
const EMAIL_TAKEN = 'app.user.save.email_exists.app_error';
/** Tries of another username after the first is taken. */
const USERNAME_RETRIES = 3;

export interface ChatTeamRef {
  teamId: string;
  teamName: string;
}

/** The associated data a user's sealed token is bound to (a copied row opens for no one else). */
const tokenAad = (userId: string) => `chat-token:${userId}`;

/**
 * Makes or finds what a user or an organization needs on the messaging server, each step
 * idempotent and under its advisory lock (a user's, an organization's; never both at once):
 * concurrent calls make one chat user, one token, one team.
 */
@Injectable()
export class ChatProvisioning {
  constructor(
    private readonly client: ChatClient,
    private readonly links: ChatLinks,
    private readonly box: SecretBox,
    private readonly env: Env,
  ) {}

  /** The user's chat user id: mapped, else adopted by e-mail, else created. */
  chatUserOf(user: UserSummary): Promise<string> {
    return this.links.locked([userLock(user.id)], (m) => this.ensureUser(m, user));
  }

  /** The user's chat user and a working access token for it (the stored one, or a new one). */
  userWithToken(user: UserSummary): Promise<{ chatUserId: string; token: string }> {
    return this.links.locked([userLock(user.id)], async (m) => {
      const chatUserId = await this.ensureUser(m, user);
      return { chatUserId, token: await this.ensureToken(m, user.id, chatUserId) };
    });
  }

  /** The organization's team (found by name or created, type `I`), with the default channels. */
  teamOf(organization: { id: string; name: string }): Promise<ChatTeamRef> {
    return this.links.locked([organizationLock(organization.id)], async (m) => {
      const link = await this.links.teamOf(organization.id, m);
      if (link) return { teamId: link.teamId, teamName: link.teamName };
      const name = teamNameFor(organization.id);
      const team =
        (await this.client.teamByName(name)) ??
        (await this.client.createTeam({
          name,
          display_name: organization.name.slice(0, 64),
          type: 'I',
        }));
      // The server makes town-square and off-topic itself; the others are ours to make.
      for (const channel of this.env.CHAT_DEFAULT_CHANNELS) {
        if (await this.client.channelByName(team.id, channel)) continue;
        await this.client.createChannel({
          team_id: team.id,
          name: channel,
          display_name: displayName(channel),
          type: 'O',
        });
      }
      await this.links.addTeam(m, organization.id, team.id, name);
      return { teamId: team.id, teamName: name };
    });
  }

  private async ensureUser(m: EntityManager, user: UserSummary): Promise<string> {
    const link = await this.links.userOf(user.id, m);
    if (link) return link.chatUserId;
    const chatUser = (await this.client.userByEmail(user.email)) ?? (await this.createUser(user));
    await this.links.addUser(m, user.id, chatUser.id);
    return chatUser.id;
  }

  private async createUser(user: UserSummary) {
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
        if (made) return made;
        throw err;
      }
    }
  }

  private async ensureToken(m: EntityManager, userId: string, chatUserId: string) {
    const stored = await this.links.tokenOf(userId, m);
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
      m,
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

/** `off-topic` → `Off-Topic`: the name a channel the server did not make is shown with. */
const displayName = (channel: string) =>
  channel.replace(/(^|[-_])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
