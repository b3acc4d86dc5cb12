import { Injectable, Logger } from '@nestjs/common';
import { UsersDirectory } from '../auth';
import { DomainError } from '../common';
import { ChatConfig } from '../config';
import { OrganizationsDirectory } from '../organizations';
import { ChatAccountNotAdoptable, ChatApiError } from './chat-api.error';
import { ChatClient } from './chat.client';
import { ChatMembership } from './chat-membership.service';
import { ChatProvisioning } from './chat-provisioning.service';
import type { ChatConfigView, ChatSessionView, TokenHealthView } from './chat.view';
import { ChatLinks } from './store/chat-links';

/** The check of a stored token waits this long for the server. */
const HEALTH_TIMEOUT_MS = 5_000;

/** The messaging-server session of a user in an organization, and what the routes read. */
@Injectable()
export class ChatSessions {
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

  config(): ChatConfigView {
    return this.env.chatConfigured
      ? { enabled: true, baseUrl: this.baseUrl }
      : { enabled: false, baseUrl: null };
  }

  /**
   * The user's chat user, a working token for it, the organization's team and the user in it
   * (and in its private channel when their role holds `canViewCapTable`); every step idempotent.
   * Any failure of the server is 500 `chatProvisioningFailed`, and so is a system admin's account
   * with the user's e-mail address, which is never taken over.
   */
  async session(userId: string, organizationId: string): Promise<ChatSessionView> {
    requireConfigured(this.env);
    const user = await this.users.findById(userId);
    if (!user) throw DomainError.unauthorized('the account no longer exists');
    const organization = await this.organizations.organization(organizationId);
    if (!organization) throw DomainError.notFound('no such organization');
    try {
      const { chatUserId, token } = await this.provisioning.userWithToken(user);
      const team = await this.provisioning.teamOf(organization);
      await this.membership.syncUser(organizationId, userId, team);
      return { token, baseUrl: this.baseUrl, teamName: team.teamName, chatUserId };
    } catch (err) {
      if (err instanceof ChatAccountNotAdoptable) {
        this.logger.warn(`chat session of user ${userId} refused: ${err.message}`);
        throw DomainError.keyed(
          'chatProvisioningFailed',
          'the messaging server has an account with this e-mail address that cannot be linked; ask its administrator',
        );
      }
      if (!(err instanceof ChatApiError)) throw err;
      this.logger.error(`chat session of user ${userId} failed: ${describe(err)}`);
      throw DomainError.keyed(
        'chatProvisioningFailed',
        'the messaging server could not set up the session; try again later',
      );
    }
  }

  /**
   * Whether the user's stored token still works: `no_token`, `revoked` (the server answered 401:
   * the token is forgotten, so the next session makes a new one) or `check_failed` (try later).
   */
  async tokenHealth(userId: string): Promise<TokenHealthView> {
    if (!this.env.chatConfigured) return { valid: false, reason: 'no_token' };
    const stored = await this.provisioning.storedToken(userId);
    if (!stored) return { valid: false, reason: 'no_token' };
    try {
      await this.client.me(stored.token, HEALTH_TIMEOUT_MS);
      return { valid: true };
    } catch (err) {
      if (err instanceof ChatApiError && err.status === 401) {
        await this.links.deleteToken(userId, stored.tokenId);
        return { valid: false, reason: 'revoked' };
      }
      if (!(err instanceof ChatApiError)) throw err;
      return { valid: false, reason: 'check_failed' };
    }
  }

  async organizationOfTeam(teamId: string): Promise<{ organizationId: string }> {
    const link = await this.links.byTeam(teamId);
    if (!link) throw DomainError.notFound('no organization has this team');
    return { organizationId: link.organizationId };
  }

  async userOfChatUser(chatUserId: string): Promise<{ userId: string | null }> {
    const link = await this.links.byChatUser(chatUserId);
    return { userId: link?.userId ?? null };
  }

  private get baseUrl(): string {
    return (this.env.CHAT_PUBLIC_URL ?? this.env.CHAT_URL)!;
  }
}

export function requireConfigured(env: ChatConfig): void {
  if (!env.chatConfigured) {
    throw DomainError.keyed(
      'chatNotConfigured',
      'team messaging is not configured: CHAT_URL and CHAT_ADMIN_TOKEN are unset',
    );
  }
}

/** A server error for the log; a disabled token feature names the setting that turns it on. */
export function describe(err: ChatApiError): string {
  const hint =
    err.id === 'app.user_access_token.disabled'
      ? ' (turn on EnableUserAccessTokens: System Console › Integrations › Integration Management)'
      : '';
  return `${err.status} ${err.id}: ${err.message}${hint}`;
}
