import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { CodeChallengeMethod, Credentials, OAuth2Client } from 'google-auth-library';
import { decodeJwt } from 'jose';
import { DomainError, OutboundHttp } from '../../../common';
import { Env } from '../../../config';
import type { IdpGrant } from './idp-grant-seal';
import { describeFailure, providerFailure, providerUnavailable, unexpected } from './idp-errors';

/** Read-only contacts (referral invitations). */
export const CONTACTS_SCOPE = 'https://www.googleapis.com/auth/contacts.readonly';
/** Read-only drive (the documents' cloud-drive sync). */
export const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive.readonly';

/**
 * What a grant is asked for: each purpose its own scope (and the e-mail of the account that
 * grants it, `openid email`) and its own redirect page of the SPA. Scopes are never merged
 * (no `include_granted_scopes`): a contacts grant cannot read a drive.
 */
export type IdpPurpose = 'contacts' | 'drive';

export const PURPOSE_SCOPE: Record<IdpPurpose, string> = {
  contacts: CONTACTS_SCOPE,
  drive: DRIVE_SCOPE,
};

/** The variable naming each purpose's redirect URI. */
export const PURPOSE_REDIRECT = {
  contacts: 'IDP_CONTACTS_REDIRECT_URI',
  drive: 'IDP_DRIVE_SYNC_REDIRECT_URI',
} as const satisfies Record<IdpPurpose, keyof Env>;

/** Every call to the provider waits this long; a 5xx or 429 is retried once, a timeout never. */
export const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * The provider's calls on the outbound base, as google-auth-library retried them: each one (the
 * token endpoint's POSTs included: a code exchange repeated after a 5xx is refused `invalid_grant`
 * at worst) once after a 5xx or a 429, 100 ms later or after the Retry-After asked (at most 2 s);
 * never after a timeout, which already held the user's request 10 s.
 */
function providerHttp(): OutboundHttp {
  return new OutboundHttp({
    provider: 'idp',
    timeoutMs: PROVIDER_TIMEOUT_MS,
    retries: 1,
    backoffMs: 100,
    maxRetryDelayMs: 2_000,
    retryUnanswered: false,
    secretFields: ['code_verifier'],
  });
}

/** An authorization request: where to send the browser, and what the session keeps of it. */
export interface Authorization {
  url: string;
  state: string;
  codeVerifier: string;
}

/**
 * The identity provider's OAuth 2.0 web-server flow through google-auth-library's OAuth2Client,
 * at the IDP_DRIVE_* endpoints, for one purpose at a time: the consent URL (offline access,
 * PKCE), the code exchange (at the purpose's redirect URI, as the code was issued for it), a
 * client holding a grant (it refreshes the access token itself), and revocation.
 */
@Injectable()
export class IdpOAuth {
  private readonly fetch = providerHttp().asFetch(() => true);
  private readonly logger = new Logger('IdpOAuth');

  constructor(private readonly env: Env) {}

  async authorization(purpose: IdpPurpose): Promise<Authorization> {
    const client = this.client(purpose);
    const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
    const state = randomBytes(32).toString('base64url');
    const url = client.generateAuthUrl({
      access_type: 'offline',
      prompt: 'consent',
      scope: [PURPOSE_SCOPE[purpose], 'openid', 'email'],
      state,
      code_challenge: codeChallenge,
      code_challenge_method: CodeChallengeMethod.S256,
    });
    return { url, state, codeVerifier };
  }

  /** Exchanges an authorization code at the token endpoint. */
  async exchange(purpose: IdpPurpose, code: string, codeVerifier: string): Promise<Credentials> {
    return (await this.client(purpose).getToken({ code, codeVerifier })).tokens;
  }

  /**
   * A connect's exchange, as the routes answer it: a code the provider refuses (`invalid_grant`:
   * wrong, expired, used, or its PKCE verifier of another session) or a consent without the
   * purpose's scope → 400 saying to start again at `restart`; no answer, or no access token → 503.
   * `owner` names whose grant it is in the log.
   */
  async redeem(
    purpose: IdpPurpose,
    code: string,
    codeVerifier: string,
    { owner, restart }: { owner: string; restart: string },
  ): Promise<Credentials> {
    let tokens: Credentials;
    try {
      tokens = await this.exchange(purpose, code, codeVerifier);
    } catch (err) {
      const failure = providerFailure(err);
      if (failure === 'invalidGrant') {
        throw DomainError.badRequest(
          'the identity provider refused the authorization code (invalid_grant): it is wrong, ' +
            `expired, already used or of another session; start again with ${restart}`,
        );
      }
      if (failure === 'unavailable') throw providerUnavailable();
      throw unexpected(`${purpose} code exchange of ${owner}`, err);
    }
    if (!tokens.access_token) {
      this.logger.error(`${purpose} code exchange of ${owner}: the provider gave no access token`);
      throw providerUnavailable();
    }
    if (!this.granted(purpose, tokens)) {
      throw DomainError.badRequest(
        `the ${purpose} permission was not granted: connect again and allow it (${restart})`,
      );
    }
    return tokens;
  }

  /** Whether the token answer grants the purpose's scope (an answer naming none is taken as so). */
  granted(purpose: IdpPurpose, tokens: Credentials): boolean {
    return !tokens.scope || tokens.scope.split(' ').includes(PURPOSE_SCOPE[purpose]);
  }

  /** The connected account's e-mail, from the ID token the token endpoint gave with the tokens. */
  emailOf(tokens: Credentials): string | null {
    if (!tokens.id_token) return null;
    // Received straight from the token endpoint (OpenID Connect Core 3.1.3.7: TLS vouches for
    // its issuer); its audience must still be our client.
    try {
      const claims = decodeJwt(tokens.id_token);
      const audience = [claims.aud].flat();
      if (!audience.includes(this.env.IDP_DRIVE_CLIENT_ID)) return null;
      return typeof claims.email === 'string' ? claims.email : null;
    } catch {
      return null;
    }
  }

  /**
   * A client holding the grant. Without a refresh token no expiry is given, so an expired access
   * token is sent as it is and refused (401) rather than refreshed.
   */
  clientFor(purpose: IdpPurpose, grant: IdpGrant): OAuth2Client {
    const client = this.client(purpose);
    client.setCredentials({
      access_token: grant.accessToken,
      refresh_token: grant.refreshToken,
      expiry_date: grant.refreshToken ? grant.expiryDate : null,
    });
    return client;
  }

  async revoke(token: string): Promise<void> {
    await this.client().revokeToken(token);
  }

  /**
   * Ends a grant at the provider (its refresh token ends its access tokens too), best effort: a
   * failure is only logged, naming `owner`.
   */
  async revokeGrant(grant: IdpGrant, owner: string): Promise<void> {
    await this.revoke(grant.refreshToken ?? grant.accessToken).catch((err: unknown) =>
      this.logger.warn(`revoking the grant of ${owner}: ${describeFailure(err)}`),
    );
  }

  /** A client for `purpose` (its redirect URI); none needed to revoke. */
  private client(purpose?: IdpPurpose): OAuth2Client {
    return new OAuth2Client({
      clientId: this.env.IDP_DRIVE_CLIENT_ID,
      clientSecret: this.env.IDP_DRIVE_CLIENT_SECRET,
      redirectUri: purpose && this.env[PURPOSE_REDIRECT[purpose]],
      endpoints: {
        oauth2AuthBaseUrl: this.env.IDP_DRIVE_AUTH_URL,
        oauth2TokenUrl: this.env.IDP_DRIVE_TOKEN_URL,
        oauth2RevokeUrl: this.env.IDP_DRIVE_REVOKE_URL,
      },
      transporterOptions: {
        // The outbound base's fetch: its timeout, retries and log line. (gaxios would otherwise
        // import node-fetch, an ES module, at run time.) Its own retries are off: google-auth-
        // library asks them for the token calls.
        fetchImplementation: this.fetch,
        retryConfig: { retry: 0 },
      },
      // A token the API refuses before its expiry (revoked, clock skew) is refreshed once.
      forceRefreshOnFailure: true,
      eagerRefreshThresholdMillis: 60_000,
    });
  }
}
