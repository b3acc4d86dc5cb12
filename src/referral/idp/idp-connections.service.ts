import { Injectable } from '@nestjs/common';
import type { SessionData } from 'express-session';
import { IdpOAuth } from '../../auth';
import { Clock, constantTimeEqual, DomainError } from '../../common';
import { IdpContacts } from './idp-contacts.service';
import type { IdpAuthUrlView, IdpConnectedView } from './idp-contacts.view';
import { IdpGrants } from './store/idp-grants';

/** How long an authorization request waits for its code. */
export const AUTHORIZATION_TTL_MS = 10 * 60 * 1000;

/** The part of the session an authorization request lives in. */
export type IdpSession = Pick<SessionData, 'idpContactsAuth'>;

/** Connecting the identity provider's contacts (the OAuth 2.0 web-server flow), and disconnecting. */
@Injectable()
export class IdpConnections {
  constructor(
    private readonly oauth: IdpOAuth,
    private readonly grants: IdpGrants,
    private readonly contacts: IdpContacts,
    private readonly clock: Clock,
  ) {}

  /** The consent URL; its `state` and PKCE verifier wait in the session for the connect. */
  async authUrl(session: IdpSession): Promise<IdpAuthUrlView> {
    const { url, state, codeVerifier } = await this.oauth.authorization('contacts');
    session.idpContactsAuth = {
      state,
      codeVerifier,
      expiresAt: this.clock.nowMs() + AUTHORIZATION_TTL_MS,
    };
    return { url };
  }

  /**
   * Exchanges the code of the session's authorization request (used up by this call, whatever
   * its outcome) and stores the grant sealed, replacing any. A refresh token the provider did
   * not give again is kept from the grant it replaces, when that was of the same account.
   */
  async connect(
    session: IdpSession,
    userId: string,
    code: string,
    state: string,
  ): Promise<IdpConnectedView> {
    const pending = session.idpContactsAuth;
    delete session.idpContactsAuth;
    if (
      !pending ||
      pending.expiresAt <= this.clock.nowMs() ||
      !constantTimeEqual(state, pending.state)
    ) {
      throw DomainError.badRequest(
        'state matches no pending authorization of this session (none, expired or already ' +
          'used): start again with GET /v1/idp/auth-url',
      );
    }
    const tokens = await this.oauth.redeem('contacts', code, pending.codeVerifier, {
      owner: `user ${userId}`,
      restart: 'GET /v1/idp/auth-url',
    });
    const email = this.oauth.emailOf(tokens);
    const previous = tokens.refresh_token ? null : await this.grants.find(userId);
    const kept = previous?.grant.email === email ? previous.grant.refreshToken : null;
    await this.grants.save(userId, {
      accessToken: tokens.access_token!,
      refreshToken: tokens.refresh_token ?? kept,
      expiryDate: tokens.expiry_date ?? null,
      email,
    });
    // Another grant (maybe of another account): what was kept of the previous one goes.
    await this.contacts.forget(userId);
    return { success: true, email };
  }

  /** Forgets the grant and revokes it at the provider (best effort: a failure is only logged). */
  async disconnect(userId: string): Promise<{ success: true }> {
    const stored = await this.grants.find(userId);
    if (!stored) return { success: true };
    await this.grants.delete(userId);
    await this.contacts.forget(userId);
    await this.oauth.revokeGrant(stored.grant, `user ${userId}`);
    return { success: true };
  }
}
