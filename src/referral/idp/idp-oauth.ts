import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CodeChallengeMethod, Credentials, gaxios, OAuth2Client } from 'google-auth-library';
import { decodeJwt } from 'jose';
import { OutboundHttp } from '../../common';
import { Env } from '../../config';
import type { IdpGrant } from './store/idp-grants';

/** Read-only contacts, and the e-mail of the account that grants them (`openid email`). */
export const CONTACTS_SCOPE = 'https://www.googleapis.com/auth/contacts.readonly';
const SCOPES = [CONTACTS_SCOPE, 'openid', 'email'];

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

/**
 * How a call to the provider failed: `invalidGrant` (the code, or the refresh token, is refused:
 * used, expired or revoked), `unauthorized` (an API refused the access token, a refresh did not
 * help), `unavailable` (no answer in time, a network error, a 5xx or 429), `refused` (any other
 * 4xx: our client's configuration). Null for an error that is not the provider's answer.
 */
export type ProviderFailure = 'invalidGrant' | 'unauthorized' | 'unavailable' | 'refused';

export function providerFailure(err: unknown): ProviderFailure | null {
  if (!(err instanceof gaxios.GaxiosError)) return null;
  const res = err.response;
  if ((res?.data as { error?: unknown } | undefined)?.error === 'invalid_grant') {
    return 'invalidGrant';
  }
  if (!res || res.status >= 500 || res.status === 429) return 'unavailable';
  return res.status === 401 ? 'unauthorized' : 'refused';
}

/** A provider's error for the log: its status and OAuth error code, never a token or a URL. */
export function describeFailure(err: unknown): string {
  if (!(err instanceof gaxios.GaxiosError)) return err instanceof Error ? err.name : 'error';
  const data = err.response?.data as { error?: unknown } | undefined;
  const code = typeof data?.error === 'string' ? ` ${data.error}` : '';
  return `${err.response?.status ?? err.code ?? 'no answer'}${code}`;
}

/**
 * What to throw for an unexpected failure: a provider's refusal becomes a plain error naming
 * only its status and code (the request it carries, tokens and all, stays out of the logs);
 * anything else is thrown as it is.
 */
export function unexpected(context: string, err: unknown): unknown {
  if (!providerFailure(err)) return err;
  return new Error(`${context}: the identity provider refused the call (${describeFailure(err)})`);
}

/** An authorization request: where to send the browser, and what the session keeps of it. */
export interface Authorization {
  url: string;
  state: string;
  codeVerifier: string;
}

/**
 * The identity provider's OAuth 2.0 web-server flow through google-auth-library's OAuth2Client,
 * at the IDP_DRIVE_* endpoints: the consent URL (offline access, PKCE), the code exchange, a
 * client holding a user's grant (it refreshes the access token itself), and revocation.
 */
@Injectable()
export class IdpOAuth {
  private readonly fetch = providerHttp().asFetch(() => true);

  constructor(private readonly env: Env) {}

  async authorization(): Promise<Authorization> {
    const client = this.client();
    const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
    const state = randomBytes(32).toString('base64url');
    const url = client.generateAuthUrl({
      access_type: 'offline',
      prompt: 'consent',
      scope: SCOPES,
      state,
      code_challenge: codeChallenge,
      code_challenge_method: CodeChallengeMethod.S256,
    });
    return { url, state, codeVerifier };
  }

  /** Exchanges an authorization code at the token endpoint. */
  async exchange(code: string, codeVerifier: string): Promise<Credentials> {
    return (await this.client().getToken({ code, codeVerifier })).tokens;
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
  clientFor(grant: IdpGrant): OAuth2Client {
    const client = this.client();
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

  private client(): OAuth2Client {
    return new OAuth2Client({
      clientId: this.env.IDP_DRIVE_CLIENT_ID,
      clientSecret: this.env.IDP_DRIVE_CLIENT_SECRET,
      redirectUri: this.env.IDP_CONTACTS_REDIRECT_URI,
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
