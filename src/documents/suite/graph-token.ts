import {
  ConfidentialClientApplication,
  INetworkModule,
  NetworkRequestOptions,
  NetworkResponse,
} from '@azure/msal-node';
import { OutboundHttp } from '../../common';
import type { Env } from '../../config';

/** The Microsoft identity platform's login origin: the authority MSAL validates keeps it. */
const LOGIN_ORIGIN = 'https://login.microsoftonline.com';

/**
 * The authority's metadata, as its openid-configuration would answer it: given, MSAL fetches
 * neither that document nor the instance discovery, so every call it makes is the token request.
 */
function metadataOf(tenant: string) {
  const base = `${LOGIN_ORIGIN}/${tenant}`;
  return {
    authorityMetadata: JSON.stringify({
      token_endpoint: `${base}/oauth2/v2.0/token`,
      authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
      end_session_endpoint: `${base}/oauth2/v2.0/logout`,
      issuer: `${base}/v2.0`,
      jwks_uri: `${LOGIN_ORIGIN}/${tenant}/discovery/v2.0/keys`,
      response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
    }),
    cloudDiscoveryMetadata: JSON.stringify({
      tenant_discovery_endpoint: `${base}/v2.0/.well-known/openid-configuration`,
      'api-version': '1.1',
      metadata: [
        {
          preferred_network: 'login.microsoftonline.com',
          preferred_cache: 'login.windows.net',
          aliases: [
            'login.microsoftonline.com',
            'login.windows.net',
            'login.microsoft.com',
            'sts.windows.net',
          ],
        },
      ],
    }),
  };
}

/**
 * MSAL's requests on the outbound base, their origin replaced by MICROSOFT_LOGIN_URL (the same
 * in production; a local fake in tests, while the authority MSAL checks stays https).
 */
class LoginNetwork implements INetworkModule {
  constructor(
    private readonly http: OutboundHttp,
    private readonly loginUrl: string,
  ) {}

  sendGetRequestAsync<T>(url: string, options?: NetworkRequestOptions) {
    return this.send<T>('GET', url, options);
  }

  sendPostRequestAsync<T>(url: string, options?: NetworkRequestOptions) {
    return this.send<T>('POST', url, options);
  }

  private async send<T>(
    method: string,
    url: string,
    options?: NetworkRequestOptions,
  ): Promise<NetworkResponse<T>> {
    const target = url.startsWith(LOGIN_ORIGIN)
      ? this.loginUrl + url.slice(LOGIN_ORIGIN.length)
      : url;
    const res = await this.http.send({
      method,
      url: target,
      headers: options?.headers,
      body: options?.body,
      // A client-credentials request changes nothing: asking again is harmless.
      repeatable: true,
      // MSAL reads the error answers itself.
      accept: () => true,
    });
    return {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: (res.body ?? {}) as T,
    };
  }
}

/**
 * The app's access token for Graph (client credentials, `<graph>/.default`: the application
 * permissions granted to it, Sites.ReadWrite.All). MSAL keeps it until shortly before it expires.
 */
export class GraphToken {
  private readonly app: ConfidentialClientApplication;
  private readonly scope: string;

  constructor(env: Env) {
    const tenant = env.MICROSOFT_TENANT_ID!;
    const http = new OutboundHttp({
      provider: 'microsoft-login',
      retries: 1,
      backoffMs: 100,
      secretFields: ['client_secret'],
    });
    this.app = new ConfidentialClientApplication({
      auth: {
        clientId: env.MICROSOFT_CLIENT_ID!,
        clientSecret: env.MICROSOFT_CLIENT_SECRET!,
        authority: `${LOGIN_ORIGIN}/${tenant}`,
        ...metadataOf(tenant),
      },
      system: { networkClient: new LoginNetwork(http, env.MICROSOFT_LOGIN_URL) },
    });
    this.scope = `${env.MICROSOFT_GRAPH_URL}/.default`;
  }

  async get(): Promise<string> {
    const result = await this.app.acquireTokenByClientCredential({ scopes: [this.scope] });
    if (!result?.accessToken) throw new Error('the Microsoft identity platform gave no token');
    return result.accessToken;
  }
}
