import { Transform } from 'class-transformer';
import { IsOptional, IsUrl } from 'class-validator';
import { configSlice } from './slice';
import { IsTrustProxy, parseTrustProxy, TrustProxy } from './trust-proxy';
import { emptyToUndefined, toTrimmedList, urlOpts } from './variable-rules';

/** Who may call the API from a browser, and which proxies in front of it are believed. */
export class HttpConfig {
  @IsUrl(urlOpts, {
    message: 'FRONTEND_URL must be an http(s) URL such as https://app.example.com',
  })
  FRONTEND_URL = 'http://localhost:5173';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(urlOpts, { message: 'API_PUBLIC_URL must be an http(s) URL' })
  API_PUBLIC_URL?: string;

  /** Further origins (besides FRONTEND_URL) whose browsers may send state-changing requests. */
  @Transform(toTrimmedList)
  @IsUrl(urlOpts, {
    each: true,
    message: 'ALLOWED_ORIGINS must be a comma-separated list of http(s) origins',
  })
  ALLOWED_ORIGINS: string[] = [];

  /**
   * Express `trust proxy`: unset = the client address is the socket's (X-Forwarded-For ignored).
   * `loopback`, `linklocal`, `uniquelocal`, a hop count, or a comma-separated list of addresses
   * and CIDRs of the proxies in front of the service.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsTrustProxy()
  TRUST_PROXY?: string;

  /** The parsed TRUST_PROXY, in the form express's `trust proxy` setting takes. */
  get trustProxy(): TrustProxy {
    return parseTrustProxy(this.TRUST_PROXY);
  }
}

export const httpSlice = configSlice({ name: 'http', schema: HttpConfig });
