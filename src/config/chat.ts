import { Transform } from 'class-transformer';
import { IsOptional, IsString, IsUrl, Matches, MinLength } from 'class-validator';
import { configSlice } from './slice';
import { emptyToUndefined, toTrimmedList, urlOpts } from './variable-rules';

/** Team messaging (a Mattermost server, REST API v4): on when CHAT_URL and CHAT_ADMIN_TOKEN are set. */
export class ChatConfig {
  /** The messaging server the API calls (its REST API is under `/api/v4`). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(urlOpts, { message: 'CHAT_URL must be an http(s) URL such as https://chat.example.com' })
  CHAT_URL?: string;

  /** The address browsers reach the messaging server at (`baseUrl`); default CHAT_URL. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(urlOpts, { message: 'CHAT_PUBLIC_URL must be an http(s) URL' })
  CHAT_PUBLIC_URL?: string;

  /** Access token of a bot account holding `system_admin` on the messaging server. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  CHAT_ADMIN_TOKEN?: string;

  /** The bearer token the messaging gateway presents on the mapping routes; unset: all refused. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'CHAT_GATEWAY_TOKEN must be at least 32 characters' })
  CHAT_GATEWAY_TOKEN?: string;

  /** Channels every organization's team has (created when missing). */
  @Transform(({ value }: { value: unknown }) =>
    value === undefined || (typeof value === 'string' && value.trim() === '')
      ? ['town-square', 'off-topic']
      : toTrimmedList({ value }),
  )
  @Matches(/^[a-z0-9][a-z0-9_-]{0,63}$/, {
    each: true,
    message: 'CHAT_DEFAULT_CHANNELS must be channel names (lower case, digits, - and _)',
  })
  CHAT_DEFAULT_CHANNELS: string[] = ['town-square', 'off-topic'];

  /** The messaging server is called only when its URL and its admin token are set. */
  get chatConfigured(): boolean {
    return Boolean(this.CHAT_URL && this.CHAT_ADMIN_TOKEN);
  }
}

export const chatSlice = configSlice({ name: 'chat', schema: ChatConfig });
