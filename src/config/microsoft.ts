import { Transform } from 'class-transformer';
import { IsOptional, IsString, IsUrl, Matches } from 'class-validator';
import { configSlice } from './slice';
import { blankTo, emptyToUndefined, urlOpts } from './variable-rules';

/** Origins given with or without a trailing slash are read without one (paths are appended). */
const origin = (fallback: string) =>
  blankTo(fallback, (value) => String(value).replace(/\/+$/, ''));

/**
 * The productivity-suite document store: a SharePoint/OneDrive drive through Microsoft Graph, as
 * an app registration of a tenant (client credentials, application permission
 * Sites.ReadWrite.All). On when the tenant, the client id, its secret and the drive are all set.
 */
export class MicrosoftConfig {
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  MICROSOFT_TENANT_ID?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  MICROSOFT_CLIENT_ID?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  MICROSOFT_CLIENT_SECRET?: string;

  /** The drive (a SharePoint document library or a OneDrive) that holds every organization's folder. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  MICROSOFT_DRIVE_ID?: string;

  /** The folder of the drive's root under which each organization has its own (`<root>/<id>`). */
  @Transform(
    blankTo('Ledgerline', (value) =>
      String(value)
        .trim()
        .replace(/^\/+|\/+$/g, ''),
    ),
  )
  @Matches(/^[^\\:*?"<>|]+$/, {
    message: 'MICROSOFT_ROOT_FOLDER must be a folder path of the drive (no \\ : * ? " < > |)',
  })
  MICROSOFT_ROOT_FOLDER = 'Ledgerline';

  /** Graph's base, without the version (tests: a local fake). */
  @Transform(origin('https://graph.microsoft.com'))
  @IsUrl(urlOpts, { message: 'MICROSOFT_GRAPH_URL must be an http(s) URL' })
  MICROSOFT_GRAPH_URL = 'https://graph.microsoft.com';

  /** Replaces the origin of the Microsoft identity platform's login endpoints (tests: a local fake). */
  @Transform(origin('https://login.microsoftonline.com'))
  @IsUrl(urlOpts, { message: 'MICROSOFT_LOGIN_URL must be an http(s) URL' })
  MICROSOFT_LOGIN_URL = 'https://login.microsoftonline.com';

  /** The suite store exists only with the tenant, the client, its secret and the drive. */
  get suiteConfigured(): boolean {
    return Boolean(
      this.MICROSOFT_TENANT_ID &&
      this.MICROSOFT_CLIENT_ID &&
      this.MICROSOFT_CLIENT_SECRET &&
      this.MICROSOFT_DRIVE_ID,
    );
  }
}

const REQUIRED = [
  'MICROSOFT_TENANT_ID',
  'MICROSOFT_CLIENT_ID',
  'MICROSOFT_CLIENT_SECRET',
  'MICROSOFT_DRIVE_ID',
] as const;

export const microsoftSlice = configSlice({
  name: 'microsoft',
  schema: MicrosoftConfig,
  // Some but not all of the four: a half-configured store would fail at its first request.
  check: (env) => {
    const set = REQUIRED.filter((name) => env[name]);
    if (!set.length || set.length === REQUIRED.length) return [];
    return REQUIRED.filter((name) => !env[name]).map(
      (name) => `  ${name}: required with ${set.join(', ')} (the productivity-suite store)`,
    );
  },
});
