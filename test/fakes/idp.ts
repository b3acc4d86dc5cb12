import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, JWK, JWTPayload, KeyLike, SignJWT } from 'jose';

export const IDP_ISSUER = 'https://idp.test';
export const IDP_CLIENT_ID = 'ledgerline-test-client';

export interface IdTokenClaims extends JWTPayload {
  email?: string;
  email_verified?: boolean | string;
  name?: string;
}

/**
 * A local identity provider: serves its public keys as a JWKS over HTTP and signs ID tokens with
 * the matching private key. Start the app with `env: idp.env()`.
 */
export class FakeIdp {
  private server?: Server;
  private privateKey!: KeyLike;
  private jwk!: JWK;
  readonly kid = 'test-key-1';
  jwksUrl = '';
  /** How many times the JWKS was fetched. */
  fetches = 0;

  static async start(): Promise<FakeIdp> {
    const idp = new FakeIdp();
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    idp.privateKey = privateKey;
    idp.jwk = { ...(await exportJWK(publicKey)), kid: idp.kid, alg: 'RS256', use: 'sig' };
    await idp.listen();
    return idp;
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => {
      if (req.url !== '/jwks') {
        res.writeHead(404).end();
        return;
      }
      this.fetches++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [this.jwk] }));
    });
    return new Promise((resolve) => {
      this.server!.listen(0, '127.0.0.1', () => {
        const { port } = this.server!.address() as AddressInfo;
        this.jwksUrl = `http://127.0.0.1:${port}/jwks`;
        resolve();
      });
    });
  }

  /** The app's environment for this provider. */
  env(): Record<string, string> {
    return { IDP_JWKS_URL: this.jwksUrl, IDP_CLIENT_ID, IDP_ISSUERS: IDP_ISSUER };
  }

  /**
   * A signed ID token: by default valid for 1 hour, for IDP_CLIENT_ID, with a verified e-mail.
   * `key`/`kid` sign with another key (a token the JWKS does not vouch for).
   */
  async sign(
    claims: IdTokenClaims = {},
    options: { key?: KeyLike; kid?: string; expiresIn?: string | number } = {},
  ): Promise<string> {
    const { sub = 'idp-subject-1', aud = IDP_CLIENT_ID, iss = IDP_ISSUER, ...rest } = claims;
    const jwt = new SignJWT({ email_verified: true, ...rest })
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? this.kid })
      .setSubject(sub)
      .setAudience(aud)
      .setIssuer(iss)
      .setIssuedAt();
    if (claims.exp === undefined) jwt.setExpirationTime(options.expiresIn ?? '1h');
    else jwt.setExpirationTime(claims.exp);
    return jwt.sign(options.key ?? this.privateKey);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

/** A private key the fake provider does not publish. */
export async function foreignKey(): Promise<KeyLike> {
  return (await generateKeyPair('RS256')).privateKey;
}
