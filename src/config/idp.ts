import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { configSlice } from './slice';
import { blankTo, emptyToUndefined, integer, toInt, toList, urlOpts } from './variable-rules';

/**
 * The identity provider: its ID tokens (login), and its OAuth 2.0 web-server flow, shared by two
 * features each with its own redirect page (contacts for referral invitations, the documents'
 * cloud-drive sync). Google's by default. Nothing here refuses start-up: a feature missing the
 * client, its secret or its redirect answers 500 `driveNotConfigured` naming the variable.
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

  /** The SPA's cloud-drive page, where the provider returns the browser with the drive's code. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(urlOpts, { message: 'IDP_DRIVE_SYNC_REDIRECT_URI must be an http(s) URL' })
  IDP_DRIVE_SYNC_REDIRECT_URI?: string;

  /** The Drive API's base; its paths (`drive/v3/...`) are appended after one `/`. */
  @Transform(blankTo('https://www.googleapis.com/', (value) => String(value).replace(/\/?$/, '/')))
  @IsUrl(urlOpts, { message: 'IDP_DRIVE_API_URL must be an http(s) URL' })
  IDP_DRIVE_API_URL = 'https://www.googleapis.com/';

  /** How often every enabled sync configuration is run; 0 turns the schedule off. */
  @Transform(blankTo(60, (value) => toInt({ value })))
  @IsInt(integer(0, 10_080))
  @Min(0, integer(0, 10_080))
  @Max(10_080, integer(0, 10_080))
  DRIVE_SYNC_INTERVAL_MINUTES = 60;
}

export const idpSlice = configSlice({ name: 'idp', schema: IdpConfig });
