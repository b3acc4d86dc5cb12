import { Transform } from 'class-transformer';
import { IsOptional, IsString, IsUrl } from 'class-validator';
import { configSlice } from './slice';
import { blankTo, emptyToUndefined, toList, urlOpts } from './variable-rules';

/**
 * The identity provider: its ID tokens (login), and its OAuth 2.0 web-server flow (contacts for
 * referral invitations; a later cloud-drive sync shares the client), on when IDP_DRIVE_CLIENT_ID
 * is set. Google's by default.
 */
export class IdpConfig {
  @IsUrl(urlOpts, { message: 'IDP_JWKS_URL must be an http(s) URL' })
  IDP_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  IDP_CLIENT_ID?: string;

  @Transform(toList)
  @IsString({ each: true })
  IDP_ISSUERS: string[] = ['https://accounts.google.com', 'accounts.google.com'];

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  IDP_DRIVE_CLIENT_ID?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  IDP_DRIVE_CLIENT_SECRET?: string;

  @Transform(blankTo('https://accounts.google.com/o/oauth2/v2/auth'))
  @IsUrl(urlOpts, { message: 'IDP_DRIVE_AUTH_URL must be an http(s) URL' })
  IDP_DRIVE_AUTH_URL = 'https://accounts.google.com/o/oauth2/v2/auth';

  @Transform(blankTo('https://oauth2.googleapis.com/token'))
  @IsUrl(urlOpts, { message: 'IDP_DRIVE_TOKEN_URL must be an http(s) URL' })
  IDP_DRIVE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

  @Transform(blankTo('https://oauth2.googleapis.com/revoke'))
  @IsUrl(urlOpts, { message: 'IDP_DRIVE_REVOKE_URL must be an http(s) URL' })
  IDP_DRIVE_REVOKE_URL = 'https://oauth2.googleapis.com/revoke';

  /** Where the provider sends the browser back with the code (the SPA's page that posts it). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(urlOpts, { message: 'IDP_CONTACTS_REDIRECT_URI must be an http(s) URL' })
  IDP_CONTACTS_REDIRECT_URI?: string;

  @Transform(blankTo('https://people.googleapis.com/'))
  @IsUrl(urlOpts, { message: 'IDP_PEOPLE_API_URL must be an http(s) URL' })
  IDP_PEOPLE_API_URL = 'https://people.googleapis.com/';

  /** The identity provider's OAuth client is used only when its client id is set. */
  get idpDriveConfigured(): boolean {
    return Boolean(this.IDP_DRIVE_CLIENT_ID);
  }
}

export const idpSlice = configSlice({
  name: 'idp',
  schema: IdpConfig,
  check: (env) => {
    if (!env.IDP_DRIVE_CLIENT_ID) return [];
    const problems: string[] = [];
    if (!env.IDP_DRIVE_CLIENT_SECRET)
      problems.push('  IDP_DRIVE_CLIENT_SECRET: required with IDP_DRIVE_CLIENT_ID');
    if (!env.IDP_CONTACTS_REDIRECT_URI)
      problems.push('  IDP_CONTACTS_REDIRECT_URI: required with IDP_DRIVE_CLIENT_ID');
    return problems;
  },
});
