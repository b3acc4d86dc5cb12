import { Injectable } from '@nestjs/common';
import { createRemoteJWKSet, errors as joseErrors, JWTPayload, jwtVerify } from 'jose';
import { normalizeEmail } from '../../common';
import { Env } from '../../config';

export interface IdpIdentity {
  subject: string;
  email: string;
  name: string | null;
}

/**
 * Why an ID token was refused, including "no provider configured" (never shown to the caller
 * beyond the key `Unauthorized` or the `auth_failed` redirect).
 */
export class IdpTokenError extends Error {}

/**
 * The identity provider's client: verifies ID tokens against the provider's JWKS (IDP_JWKS_URL,
 * fetched and cached by jose), with `aud` = IDP_CLIENT_ID, `iss` one of IDP_ISSUERS, `exp`/`nbf`
 * checked (5 s leeway), an asymmetric algorithm, and an e-mail the provider says it verified.
 * Without IDP_CLIENT_ID the integration is off (`configured` is false).
 */
@Injectable()
export class IdpTokenVerifier {
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly env: Env) {
    if (env.IDP_CLIENT_ID) {
      this.jwks = createRemoteJWKSet(new URL(env.IDP_JWKS_URL), {
        timeoutDuration: 5000,
        cooldownDuration: 30_000,
      });
    }
  }

  get configured(): boolean {
    return Boolean(this.jwks);
  }

  async verify(token: string): Promise<IdpIdentity> {
    if (!this.jwks) throw new IdpTokenError('identity provider not configured');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, {
        audience: this.env.IDP_CLIENT_ID,
        issuer: this.env.IDP_ISSUERS,
        algorithms: ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'PS256'],
        clockTolerance: 5,
        requiredClaims: ['exp', 'sub', 'iss', 'aud'],
      }));
    } catch (err) {
      const reason = err instanceof joseErrors.JOSEError ? err.code : 'unverifiable';
      throw new IdpTokenError(`ID token refused: ${reason}`);
    }
    const email = typeof payload.email === 'string' ? normalizeEmail(payload.email) : '';
    const verified = payload.email_verified === true || payload.email_verified === 'true';
    if (!payload.sub || !email || !verified) {
      throw new IdpTokenError('ID token without a verified e-mail');
    }
    const name =
      typeof payload.name === 'string' && payload.name.trim() ? payload.name.trim() : null;
    return { subject: payload.sub, email, name };
  }
}

/** The token is fine but belongs to a different provider identity than the linked one. */
export class IdentityConflictError extends IdpTokenError {}
