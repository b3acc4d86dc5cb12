import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
  ValidationError,
} from 'class-validator';
import {
  HOOK_PRESET_NAMES,
  HookMapping,
  hookMappingLabel,
  readHookMappings,
} from './hook-mappings';
import { IsMailbox } from './mailbox';
import { DEFAULT_REFERRAL_REWARDS, readReferralRewards, ReferralReward } from './referral-rewards';
import { IsTrustProxy, parseTrustProxy, TrustProxy } from './trust-proxy';

/**
 * Every environment variable the service reads, declared once. Defaults live here; the README and
 * .env.example mirror this file (a unit test keeps the three in step). Every validation message
 * names the variable and what it accepts, because it is what an operator reads when start-up stops.
 */
const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : Number(value);
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : value === true || value === 'true' || value === '1'
      ? true
      : value === false || value === 'false' || value === '0'
        ? false
        : value;
const toList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean)
    : value;
/** Comma-separated, each trimmed, case kept (origins, model ids). */
const toTrimmedList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : value;
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
/** Blank or unset → `fallback`: for variables an operator (or a test) may set to '' meaning "default". */
const blankTo =
  (fallback: unknown, convert: (value: unknown) => unknown = (value) => value) =>
  ({ value }: { value: unknown }) =>
    value === undefined || value === '' ? fallback : convert(value);

const urlOpts = { require_tld: false, require_protocol: true };
const oneOf = (values: readonly string[]) => ({
  message: (args: { property: string; value: unknown }) =>
    `${args.property} must be one of ${values.join(', ')} (got "${String(args.value)}")`,
});
const integer = (min: number, max?: number) => ({
  message: (args: { property: string; value: unknown }) =>
    `${args.property} must be an integer ${max === undefined ? `>= ${min}` : `from ${min} to ${max}`} (got "${String(args.value)}")`,
});

const yesNo = (value: unknown) => toBool({ value });

/** IsInt, Min and (when given) Max, each with the message of `integer(min, max)`. */
const IntegerIn =
  (min: number, max?: number): PropertyDecorator =>
  (target, property) => {
    const message = integer(min, max);
    IsInt(message)(target, property);
    Min(min, message)(target, property);
    if (max !== undefined) Max(max, message)(target, property);
  };

const pendingMinutes = {
  message: (args: { property: string; value: unknown }) =>
    `${args.property} must be a number of minutes above 0, at most 10080 (got "${String(args.value)}")`,
};

/** The largest statement_timeout PostgreSQL takes (ms, a 32-bit integer). */
const PG_MAX_TIMEOUT_MS = 2_147_483_647;

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** `hooks/` → `/hooks`: a slash in front, none at the end (`/` becomes empty, refused). */
const hooksPath = (value: string) => `/${value.trim()}`.replace(/^\/+/, '/').replace(/\/+$/, '');

/** Kept off the class's fields, which are the declared variables. */
const hookMappings = new WeakMap<Env, readonly HookMapping[]>();
const referralRewards = new WeakMap<Env, readonly ReferralReward[]>();

export class Env {
  @IsIn(NODE_ENVS, oneOf(NODE_ENVS))
  NODE_ENV: (typeof NODE_ENVS)[number] = 'development';

  @Transform(toInt)
  @IsInt(integer(0, 65535))
  @Min(0, integer(0, 65535))
  @Max(65535, integer(0, 65535))
  PORT = 3000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsString()
  EMBEDDED_POSTGRES_DIR = './.data/postgres';

  /**
   * PostgreSQL's statement_timeout on every connection of the app: a statement that runs (or
   * waits for a lock) longer is cancelled and its request answered 503. Bounds what one request
   * can make the database do.
   */
  @Transform(toInt)
  @IsInt(integer(1, PG_MAX_TIMEOUT_MS))
  @Min(1, integer(1, PG_MAX_TIMEOUT_MS))
  @Max(PG_MAX_TIMEOUT_MS, integer(1, PG_MAX_TIMEOUT_MS))
  DATABASE_STATEMENT_TIMEOUT_MS = 15_000;

  /**
   * The limit inside the transactions of imports and exports (which raise it for themselves),
   * and on the connections of the CLI.
   */
  @Transform(toInt)
  @IsInt(integer(1, PG_MAX_TIMEOUT_MS))
  @Min(1, integer(1, PG_MAX_TIMEOUT_MS))
  @Max(PG_MAX_TIMEOUT_MS, integer(1, PG_MAX_TIMEOUT_MS))
  DATABASE_LONG_STATEMENT_TIMEOUT_MS = 300_000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @IsString()
  REDIS_DATA_DIR = './.data/redis';

  @IsString()
  @Matches(/^[A-Za-z0-9:_-]*$/, {
    message: 'REDIS_PREFIX may hold only letters, digits, ":", "_" and "-"',
  })
  REDIS_PREFIX = 'ledgerline:';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'SESSION_SECRET must be at least 32 characters' })
  SESSION_SECRET?: string;

  @Transform(toInt)
  @IsInt(integer(1000))
  @Min(1000, integer(1000))
  API_SESSION_MAX_AGE = 604_800_000;

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

  @IsIn(LOG_LEVELS, oneOf(LOG_LEVELS))
  LOG_LEVEL: LogLevelName = 'log';

  @Transform(toInt)
  @IsInt(integer(0))
  @Min(0, integer(0))
  OUTBOX_RELAY_INTERVAL_MS = 500;

  @Transform(toInt)
  @IsInt(integer(1))
  @Min(1, integer(1))
  QUEUE_JOB_ATTEMPTS = 5;

  /** 32 bytes, base64 or hex: key of the AES-256-GCM encryption of secrets at rest. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, {
    message: 'ENCRYPTION_KEY must be 32 bytes as 64 hex characters or base64',
  })
  ENCRYPTION_KEY?: string;

  // Mail
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  /** `address@example.com` or `Display Name <address@example.com>`. */
  @IsMailbox()
  MAIL_FROM = 'Ledgerline <no-reply@ledgerline.local>';

  // Registration and e-mail verification
  @Transform(toList)
  @IsString({ each: true })
  BLOCKED_EMAILS: string[] = [];

  @Transform(toList)
  @IsString({ each: true })
  BLOCKED_EMAIL_DOMAINS: string[] = [];

  @Transform(toInt)
  @IsInt(integer(1))
  @Min(1, integer(1))
  REGISTRATION_IP_LIMIT = 20;

  @Transform(toInt)
  @IsInt(integer(0))
  @Min(0, integer(0))
  EMAIL_VERIFICATION_LIMIT_SECONDS = 1800;

  // Login
  /**
   * Failed password checks (login, password change) allowed from one client IP within 15 minutes.
   * Above the per-account limit of 10: many users may share an address (NAT).
   */
  @Transform(toInt)
  @IsInt(integer(11))
  @Min(11, integer(11))
  LOGIN_IP_FAILURE_LIMIT = 100;

  // Identity provider (ID-token login)
  @IsUrl(urlOpts, { message: 'IDP_JWKS_URL must be an http(s) URL' })
  IDP_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  IDP_CLIENT_ID?: string;

  @Transform(toList)
  @IsString({ each: true })
  IDP_ISSUERS: string[] = ['https://accounts.google.com', 'accounts.google.com'];

  // Identity provider's OAuth 2.0 web-server flow (contacts for referral invitations; a later
  // cloud-drive sync shares the client): on when IDP_DRIVE_CLIENT_ID is set. Google's by default.
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

  // Referral program
  /**
   * Credit not spent within this many days of arriving expires (oldest first), checked daily;
   * 0: credit never expires.
   */
  @Transform(blankTo(0, Number))
  @IsInt(integer(0, 3650))
  @Min(0, integer(0, 3650))
  @Max(3650, integer(0, 3650))
  REFERRAL_CREDIT_EXPIRY_DAYS = 0;

  /** Reward card values and weights, JSON (see the README); read through `referralRewards`. */
  @Transform(blankTo(DEFAULT_REFERRAL_REWARDS))
  @IsString()
  REFERRAL_REWARDS = DEFAULT_REFERRAL_REWARDS;

  @Transform(toBool)
  @IsOptional()
  @IsBoolean({ message: 'SWAGGER_ENABLED must be true or false' })
  SWAGGER_ENABLED?: boolean;

  /**
   * `on`: hot lists (members, ...) are answered from an in-process cache keyed by the data's
   * versions, with ETags (`If-None-Match` → 304). `off`: computed on every request, no ETag.
   */
  @IsIn(['on', 'off'], oneOf(['on', 'off']))
  LIST_CACHE: 'on' | 'off' = 'on';

  @Transform(toInt)
  @IsInt(integer(1, 4096))
  @Min(1, integer(1, 4096))
  @Max(4096, integer(1, 4096))
  LIST_CACHE_MAX_MB = 64;

  /**
   * The most bytes the answers of one `POST /v1/query` may add up to (its reads are held in
   * memory until all are done); more → 413 `queryResponseTooLarge`.
   */
  @Transform(toInt)
  @IsInt(integer(1024, 1_073_741_824))
  @Min(1024, integer(1024, 1_073_741_824))
  @Max(1_073_741_824, integer(1024, 1_073_741_824))
  QUERY_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

  // Storage of documents and files
  /** `local`: files under STORAGE_DIR; `gcs`: a Cloud Storage bucket. */
  @IsIn(['local', 'gcs'], oneOf(['local', 'gcs']))
  STORAGE_DRIVER: 'local' | 'gcs' = 'local';

  @IsString()
  STORAGE_DIR = './.data/storage';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/, {
    message: 'STORAGE_BUCKET must be a Cloud Storage bucket name',
  })
  STORAGE_BUCKET?: string;

  /** Another Cloud Storage endpoint (an emulator); requests to it carry no Google credentials. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(urlOpts, { message: 'STORAGE_API_ENDPOINT must be an http(s) URL' })
  STORAGE_API_ENDPOINT?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  STORAGE_PROJECT_ID?: string;

  /** A service-account key file; without it the client uses the application default credentials. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  STORAGE_CREDENTIALS_FILE?: string;

  @Transform(toInt)
  @IsInt(integer(1, 1024))
  @Min(1, integer(1, 1024))
  @Max(1024, integer(1, 1024))
  STORAGE_UPLOAD_SIZE_LIMIT_MB = 10;

  @Transform(toInt)
  @IsInt(integer(1, 1024))
  @Min(1, integer(1, 1024))
  @Max(1024, integer(1, 1024))
  DATA_ROOM_UPLOAD_SIZE_LIMIT_MB = 10;

  /**
   * Uploads one user may have in progress at once in this process (each may hold its files in
   * memory up to the size limit); one more answers 429 `tooManyUploads`.
   */
  @Transform(toInt)
  @IsInt(integer(1, 100))
  @Min(1, integer(1, 100))
  @Max(100, integer(1, 100))
  UPLOAD_CONCURRENCY_PER_USER = 3;

  // Imports (OCF packages and cap table CSV files): the work one upload may ask for.
  /** Inflated size of one entry of an OCF zip, in MiB (a zip bomb stops here). */
  @Transform(toInt)
  @IsInt(integer(1, 1024))
  @Min(1, integer(1, 1024))
  @Max(1024, integer(1, 1024))
  OCF_IMPORT_MAX_ENTRY_MB = 8;

  /** Inflated size of all entries of an OCF zip together, in MiB. */
  @Transform(toInt)
  @IsInt(integer(1, 4096))
  @Min(1, integer(1, 4096))
  @Max(4096, integer(1, 4096))
  OCF_IMPORT_MAX_TOTAL_MB = 32;

  /**
   * Objects of one OCF file (the entries of its top-level lists: a file's `items`), counted before
   * the file is parsed. 100,000: the smallest OCF objects take about 90 bytes, so an 8 MiB file of
   * real objects holds fewer; a file padded with `{}` holds millions.
   */
  @Transform(toInt)
  @IsInt(integer(1, 10_000_000))
  @Min(1, integer(1, 10_000_000))
  @Max(10_000_000, integer(1, 10_000_000))
  OCF_IMPORT_MAX_OBJECTS_PER_FILE = 100_000;

  /** Rows of a cap table CSV import (the header aside); more answer 413. */
  @Transform(toInt)
  @IsInt(integer(1, 10_000_000))
  @Min(1, integer(1, 10_000_000))
  @Max(10_000_000, integer(1, 10_000_000))
  CSV_IMPORT_MAX_ROWS = 200_000;

  /** File extensions an upload may have (lower case, without the dot). */
  @Transform(toList)
  @IsString({ each: true })
  STORAGE_ALLOWED_EXTENSIONS: string[] = [
    'pdf',
    'png',
    'jpg',
    'jpeg',
    'gif',
    'webp',
    'csv',
    'xlsx',
    'docx',
    'doc',
    'txt',
    'md',
    'zip',
  ];

  // Billing provider (Maxio Advanced Billing): configured when the URL and the API key are set.
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(urlOpts, {
    message: 'BILLING_PROVIDER_URL must be an http(s) URL such as https://acme.chargify.com',
  })
  BILLING_PROVIDER_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  BILLING_API_KEY?: string;

  /**
   * Signs the provider's webhooks (HMAC-SHA256 of the body); unset: every webhook is refused.
   * At least 32 characters: a short key could be guessed, and a guessed key forges webhooks.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'BILLING_SITE_SHARED_KEY must be at least 32 characters' })
  BILLING_SITE_SHARED_KEY?: string;

  /** The product family whose components price members and shareholders: an id or `handle:<handle>`. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^([1-9]\d*|handle:[a-z0-9_-]+)$/, {
    message: 'BILLING_PRODUCT_FAMILY must be a product family id or handle:<handle>',
  })
  BILLING_PRODUCT_FAMILY?: string;

  @Transform(blankTo('USD'))
  @Matches(/^[A-Z]{3}$/, { message: 'BILLING_CURRENCY must be an ISO 4217 code such as USD' })
  BILLING_CURRENCY = 'USD';

  /** How long a change of an organization's counts waits for more before they are pushed. */
  @Transform(blankTo(5000, Number))
  @IsInt(integer(0, 3_600_000))
  @Min(0, integer(0, 3_600_000))
  @Max(3_600_000, integer(0, 3_600_000))
  BILLING_COUNTS_DEBOUNCE_MS = 5000;

  /**
   * Outbound webhooks may target loopback, private, CGNAT, link-local and unique-local addresses
   * (a receiver on the same network) besides global unicast ones; unset: false. Metadata addresses
   * and the other special-purpose ranges stay refused regardless.
   */
  @Transform(toBool)
  @IsOptional()
  @IsBoolean({ message: 'WEBHOOK_ALLOW_PRIVATE_URLS must be true or false' })
  WEBHOOK_ALLOW_PRIVATE_URLS?: boolean;

  // The AI assistant (the agent): on when LLM_API_KEY is set and AGENT_ENABLED is not false.
  /** The language-model provider's API key (sent as `Authorization: Bearer`); unset: agent off. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  LLM_API_KEY?: string;

  /**
   * An Anthropic Messages API endpoint (a proxy, a gateway, a test fake) without `/v1`: the
   * client appends `/v1/messages`. Unset: https://api.anthropic.com.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(urlOpts, {
    message: 'LLM_BASE_URL must be an http(s) URL such as https://api.anthropic.com',
  })
  @Matches(/^(?!.*\/v1\/?$)/, {
    message: 'LLM_BASE_URL must not end in /v1 (the client appends /v1/messages)',
  })
  LLM_BASE_URL?: string;

  /** The model a request names when it names none; one of LLM_ALLOWED_MODELS when that is set. */
  @Transform(blankTo('claude-sonnet-4-6'))
  @Matches(/^\S+$/, { message: 'LLM_MODEL must be a model id such as claude-sonnet-4-6' })
  LLM_MODEL = 'claude-sonnet-4-6';

  /** The models a request may name; empty: any. */
  @Transform(toTrimmedList)
  @IsString({ each: true })
  LLM_ALLOWED_MODELS: string[] = [];

  /** `max_tokens` of a request that sets none: the most tokens one answer of the model may have. */
  @Transform(blankTo(4096, Number))
  @IntegerIn(1, 1_000_000)
  LLM_MAX_TOKENS = 4096;

  /** How long one attempt may take, from sending the request to the end of the answer. */
  @Transform(blankTo(120_000, Number))
  @IntegerIn(1, 3_600_000)
  LLM_TIMEOUT_MS = 120_000;

  /** Further attempts after a 408, 409, 429, 5xx, timeout or lost connection; then 503. */
  @Transform(blankTo(2, Number))
  @IntegerIn(0, 10)
  LLM_MAX_RETRIES = 2;

  /** Only `false` turns the agent off (it is off anyway without LLM_API_KEY). */
  @Transform(blankTo(true, yesNo))
  @IsBoolean({ message: 'AGENT_ENABLED must be true or false' })
  AGENT_ENABLED = true;

  /** Write actions the agent proposes wait for the user's confirmation. */
  @Transform(blankTo(true, yesNo))
  @IsBoolean({ message: 'AGENT_CONFIRM_WRITE_OPERATIONS must be true or false' })
  AGENT_CONFIRM_WRITE_OPERATIONS = true;

  @Transform(blankTo(30, Number))
  @IntegerIn(1, 10_000)
  AGENT_MAX_TOOL_CALLS_PER_MINUTE = 30;

  @Transform(blankTo(10, Number))
  @IntegerIn(1, 10_000)
  AGENT_MAX_WRITE_OPS_PER_MINUTE = 10;

  @Transform(blankTo(5, Number))
  @IntegerIn(1, 10_000)
  AGENT_MAX_DESTRUCTIVE_PER_HOUR = 5;

  /** How long a write action waits for its confirmation, in minutes (fractions allowed). */
  @Transform(blankTo(60, Number))
  @IsNumber({ allowNaN: false, allowInfinity: false }, pendingMinutes)
  @IsPositive(pendingMinutes)
  @Max(10_080, pendingMinutes)
  AGENT_PENDING_TTL_MINUTES = 60;

  /** Round trips to the model (each answering its tool calls) within one chat message. */
  @Transform(blankTo(8, Number))
  @IntegerIn(1, 100)
  AGENT_MAX_TOOL_ROUNDS = 8;

  /** Chat turns (each calling the model) one user may start per hour. */
  @Transform(blankTo(60, Number))
  @IntegerIn(1, 100_000)
  AGENT_TURNS_PER_USER_PER_HOUR = 60;

  /**
   * Input and output tokens (the provider's `usage`) the agent may spend per organization per UTC
   * day: chat turns, heartbeats and hook runs; a founder's onboarding analyses count per user.
   */
  @Transform(blankTo(2_000_000, Number))
  @IntegerIn(1)
  AGENT_ORG_DAILY_TOKENS = 2_000_000;

  /** Characters of one prompt: system text, stored messages and tool results (oldest left out). */
  @Transform(blankTo(200_000, Number))
  @IntegerIn(25_000, 10_000_000)
  AGENT_MAX_PROMPT_CHARS = 200_000;

  /** Conversations one user keeps; starting one more deletes their least recently used. */
  @Transform(blankTo(200, Number))
  @IntegerIn(1, 100_000)
  AGENT_MAX_CONVERSATIONS_PER_USER = 200;

  /** Days after its last message a conversation is deleted by the daily clean-up. */
  @Transform(blankTo(90, Number))
  @IntegerIn(1, 36_500)
  AGENT_CONVERSATION_RETENTION_DAYS = 90;

  /** Onboardings created through the public route per client IP (IPv6: per /64) per hour. */
  @Transform(blankTo(10, Number))
  @IntegerIn(1)
  ONBOARDING_IP_LIMIT = 10;

  /** Onboardings created through the public route per hour, all clients together. */
  @Transform(blankTo(200, Number))
  @IntegerIn(1)
  ONBOARDING_CREATES_PER_HOUR = 200;

  /** Analyses one onboarding may ask for (analyze, setup) per day. */
  @Transform(blankTo(5, Number))
  @IntegerIn(1, 1000)
  ONBOARDING_ANALYSES_PER_ONBOARDING = 5;

  /** Tokens per UTC day of the analyses of onboardings no user has linked yet, all together. */
  @Transform(blankTo(20_000_000, Number))
  @IntegerIn(1)
  ONBOARDING_ANONYMOUS_DAILY_TOKENS = 20_000_000;

  // Team messaging (a Mattermost server, REST API v4): on when CHAT_URL and CHAT_ADMIN_TOKEN are set.

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

  // Gateway hooks (issue 24): outside systems wake the agent or hand it a task. Off by default.
  @Transform(blankTo(false, yesNo))
  @IsBoolean({ message: 'HOOKS_ENABLED must be true or false' })
  HOOKS_ENABLED = false;

  /** The callers' shared secret; required with HOOKS_ENABLED. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'HOOKS_TOKEN must be at least 32 characters' })
  HOOKS_TOKEN?: string;

  /** Where the hooks are mounted, outside the API's own paths (which it would shadow). */
  @Transform(blankTo('/hooks', (value) => (typeof value === 'string' ? hooksPath(value) : value)))
  @Matches(/^(?!\/(v1|api|docs)|\/health(\/|$))(\/[A-Za-z0-9._~-]+)+$/i, {
    message: (args) =>
      /^(\/[A-Za-z0-9._~-]+)+$/.test(String(args.value))
        ? `HOOKS_PATH must not be /health nor under /v1, /api or /docs (got "${String(args.value)}")`
        : `HOOKS_PATH must be a path such as /hooks, not / (got "${String(args.value)}")`,
  })
  HOOKS_PATH = '/hooks';

  @Transform(blankTo(262_144, Number))
  @IntegerIn(1, 16 * 1024 * 1024)
  HOOKS_MAX_BODY_BYTES = 262_144;

  /** Built-in mappings, after HOOKS_MAPPINGS; `none` for none. */
  @Transform(blankTo(['gmail'], (value) => (value === 'none' ? [] : toList({ value }))))
  @IsIn(HOOK_PRESET_NAMES, {
    each: true,
    message: (args) =>
      `HOOKS_PRESETS must be a comma-separated list of ${HOOK_PRESET_NAMES.join(', ')} (or none) (got "${String(args.value)}")`,
  })
  HOOKS_PRESETS: string[] = ['gmail'];

  /** A JSON array of mappings (see the README); read through `hookMappings`. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  HOOKS_MAPPINGS?: string;

  /** A file holding the JSON array instead, read at start-up. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  HOOKS_MAPPINGS_FILE?: string;

  /** Where a mapping's `transform.module` is looked up (it may not leave the folder). */
  @Transform(blankTo('./hooks/transforms'))
  @IsString()
  HOOKS_TRANSFORMS_DIR = './hooks/transforms';

  /** How often the main conversation's heartbeat runs: `<n>s`, `<n>m`, `<n>h`; `0`: on demand only. */
  @Transform(blankTo('30m'))
  @Matches(/^(0|[1-9]\d{0,5}[smh])$/, {
    message: (args) =>
      `HOOKS_HEARTBEAT_EVERY must be 0 or a number with s, m or h, such as 30m (got "${String(args.value)}")`,
  })
  HOOKS_HEARTBEAT_EVERY = '30m';

  /** The organization of a hook request that names none. */
  @Transform(({ value }: { value: unknown }) =>
    value === '' ? undefined : typeof value === 'string' ? value.toLowerCase() : value,
  )
  @IsOptional()
  @IsUUID('all', { message: 'HOOKS_DEFAULT_ORGANIZATION must be a UUID' })
  HOOKS_DEFAULT_ORGANIZATION?: string;

  /** The only organizations a hook may reach (lower-cased UUIDs); empty: any. */
  @Transform(blankTo([], (value) => toList({ value })))
  @IsUUID('all', {
    each: true,
    message:
      'HOOKS_ALLOWED_ORGANIZATIONS must be a comma-separated list of organization ids (UUIDs)',
  })
  HOOKS_ALLOWED_ORGANIZATIONS: string[] = [];

  /** The parsed HOOKS_MAPPINGS or HOOKS_MAPPINGS_FILE (validateEnv reads them when hooks are on). */
  get hookMappings(): readonly HookMapping[] {
    return hookMappings.get(this) ?? [];
  }

  /** HOOKS_HEARTBEAT_EVERY in ms; 0: the heartbeat runs on demand only. */
  get hooksHeartbeatEveryMs(): number {
    const match = /^(\d+)([smh])$/.exec(this.HOOKS_HEARTBEAT_EVERY);
    if (!match) return 0;
    return Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 's' | 'm' | 'h'];
  }

  /** The parsed TRUST_PROXY, in the form express's `trust proxy` setting takes. */
  get trustProxy(): TrustProxy {
    return parseTrustProxy(this.TRUST_PROXY);
  }

  /** The parsed REFERRAL_REWARDS (validateEnv reads them). */
  get referralRewards(): readonly ReferralReward[] {
    return referralRewards.get(this) ?? [];
  }

  /** The identity provider's OAuth client is used only when its client id is set. */
  get idpDriveConfigured(): boolean {
    return Boolean(this.IDP_DRIVE_CLIENT_ID);
  }

  /** The messaging server is called only when its URL and its admin token are set. */
  get chatConfigured(): boolean {
    return Boolean(this.CHAT_URL && this.CHAT_ADMIN_TOKEN);
  }

  /** The billing provider is called only when both its URL and its API key are set. */
  get billingConfigured(): boolean {
    return Boolean(this.BILLING_PROVIDER_URL && this.BILLING_API_KEY);
  }
}

/** The agent's routes exist only when the model's API key is set and AGENT_ENABLED is not false. */
export const agentEnabled = (env: Env): boolean =>
  Boolean(env.LLM_API_KEY) && env.AGENT_ENABLED !== false;

export function validateEnv(raw: Record<string, unknown>): Env {
  const env = plainToInstance(Env, raw, { exposeDefaultValues: true });
  const errors = validateSync(env, { whitelist: false, forbidUnknownValues: false });
  const problems = errors.map((e) => `  ${e.property}: ${firstMessage(e)}`);
  if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
    problems.push('  SESSION_SECRET: required when NODE_ENV=production (at least 32 characters)');
  }
  if (env.STORAGE_DRIVER === 'gcs' && !env.STORAGE_BUCKET) {
    problems.push(
      '  STORAGE_BUCKET: required when STORAGE_DRIVER=gcs (a Cloud Storage bucket name)',
    );
  }
  if (
    Number.isInteger(env.DATABASE_LONG_STATEMENT_TIMEOUT_MS) &&
    env.DATABASE_LONG_STATEMENT_TIMEOUT_MS < env.DATABASE_STATEMENT_TIMEOUT_MS
  ) {
    problems.push(
      `  DATABASE_LONG_STATEMENT_TIMEOUT_MS: must be at least DATABASE_STATEMENT_TIMEOUT_MS (${env.DATABASE_STATEMENT_TIMEOUT_MS})`,
    );
  }
  if (Boolean(env.BILLING_PROVIDER_URL) !== Boolean(env.BILLING_API_KEY)) {
    problems.push(
      env.BILLING_PROVIDER_URL
        ? '  BILLING_API_KEY: required with BILLING_PROVIDER_URL (or unset both: billing off)'
        : '  BILLING_PROVIDER_URL: required with BILLING_API_KEY (or unset both: billing off)',
    );
  }
  if (env.LLM_ALLOWED_MODELS.length) {
    const named = typeof raw.LLM_MODEL === 'string' && raw.LLM_MODEL.trim() !== '';
    if (!named) {
      problems.push(
        `  LLM_MODEL: required with LLM_ALLOWED_MODELS (one of ${env.LLM_ALLOWED_MODELS.join(', ')})`,
      );
    } else if (!env.LLM_ALLOWED_MODELS.includes(env.LLM_MODEL)) {
      problems.push(
        `  LLM_MODEL: must be one of LLM_ALLOWED_MODELS (${env.LLM_ALLOWED_MODELS.join(', ')}) (got "${env.LLM_MODEL}")`,
      );
    }
  }
  if (env.NODE_ENV === 'production' && !env.ENCRYPTION_KEY) {
    problems.push('  ENCRYPTION_KEY: required when NODE_ENV=production (64 hex characters)');
  }
  if (env.HOOKS_ENABLED === true) problems.push(...hooksProblems(env));
  if (env.IDP_DRIVE_CLIENT_ID && !env.IDP_DRIVE_CLIENT_SECRET) {
    problems.push('  IDP_DRIVE_CLIENT_SECRET: required with IDP_DRIVE_CLIENT_ID');
  }
  if (env.IDP_DRIVE_CLIENT_ID && !env.IDP_CONTACTS_REDIRECT_URI) {
    problems.push('  IDP_CONTACTS_REDIRECT_URI: required with IDP_DRIVE_CLIENT_ID');
  }
  if (typeof env.REFERRAL_REWARDS === 'string') {
    const read = readReferralRewards(env.REFERRAL_REWARDS);
    referralRewards.set(env, read.rewards);
    problems.push(...read.problems);
  }
  if (problems.length) {
    throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  }
  return env;
}

/** What HOOKS_ENABLED needs; the mappings are read (and kept on `env`) only then. */
function hooksProblems(env: Env): string[] {
  const problems: string[] = [];
  if (!env.HOOKS_TOKEN) {
    problems.push('  HOOKS_TOKEN: required when HOOKS_ENABLED=true (at least 32 characters)');
  } else if (env.HOOKS_TOKEN === env.CHAT_GATEWAY_TOKEN) {
    problems.push('  HOOKS_TOKEN: must differ from CHAT_GATEWAY_TOKEN');
  }
  if (!agentEnabled(env)) {
    problems.push('  HOOKS_ENABLED: needs the agent (LLM_API_KEY set, AGENT_ENABLED not false)');
  }
  const read = readHookMappings(
    { json: env.HOOKS_MAPPINGS, file: env.HOOKS_MAPPINGS_FILE },
    Array.isArray(env.LLM_ALLOWED_MODELS) ? env.LLM_ALLOWED_MODELS : [],
  );
  hookMappings.set(env, read.mappings);
  return [...problems, ...read.problems, ...allowedOrganizationProblems(env, read.mappings)];
}

/** What the configuration itself names must be within HOOKS_ALLOWED_ORGANIZATIONS. */
function allowedOrganizationProblems(env: Env, mappings: readonly HookMapping[]): string[] {
  const allowed = env.HOOKS_ALLOWED_ORGANIZATIONS;
  if (!Array.isArray(allowed) || !allowed.length) return [];
  const outside = (id: string | undefined) =>
    id !== undefined && !allowed.includes(id.toLowerCase());
  const problems: string[] = [];
  if (outside(env.HOOKS_DEFAULT_ORGANIZATION))
    problems.push('  HOOKS_DEFAULT_ORGANIZATION: must be one of HOOKS_ALLOWED_ORGANIZATIONS');
  const variable = env.HOOKS_MAPPINGS_FILE !== undefined ? 'HOOKS_MAPPINGS_FILE' : 'HOOKS_MAPPINGS';
  mappings.forEach((mapping, index) => {
    if (outside(mapping.organization))
      problems.push(
        `  ${variable}: ${hookMappingLabel(mapping, index)}: organization ${mapping.organization} is not in HOOKS_ALLOWED_ORGANIZATIONS`,
      );
  });
  return problems;
}

/** One message per variable: the first rule it breaks (the others usually say the same). */
const firstMessage = (e: ValidationError) => Object.values(e.constraints ?? {})[0] ?? 'invalid';
