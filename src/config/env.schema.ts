import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';

/**
 * Every environment variable the service reads, declared once. Defaults live here; the README and
 * .env.example mirror this file (a unit test keeps the three in step).
 */
const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : Number(value);
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : value === true || value === 'true' || value === '1';
const toList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean)
    : value;
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

const urlOpts = { require_tld: false, require_protocol: true };

export class Env {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsString()
  EMBEDDED_POSTGRES_DIR = './.data/postgres';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL?: string;

  @IsString()
  REDIS_DATA_DIR = './.data/redis';

  @IsString()
  @Matches(/^[A-Za-z0-9:_-]*$/)
  REDIS_PREFIX = 'ledgerline:';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32)
  SESSION_SECRET?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1000)
  API_SESSION_MAX_AGE = 604_800_000;

  @IsUrl(urlOpts)
  FRONTEND_URL = 'http://localhost:5173';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(urlOpts)
  API_PUBLIC_URL?: string;

  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  OUTBOX_RELAY_INTERVAL_MS = 500;

  @Transform(toInt)
  @IsInt()
  @Min(1)
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

  @IsEmail()
  MAIL_FROM = 'no-reply@ledgerline.local';

  // Registration and e-mail verification
  @Transform(toList)
  @IsString({ each: true })
  BLOCKED_EMAILS: string[] = [];

  @Transform(toList)
  @IsString({ each: true })
  BLOCKED_EMAIL_DOMAINS: string[] = [];

  @Transform(toInt)
  @IsInt()
  @Min(1)
  REGISTRATION_IP_LIMIT = 20;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  EMAIL_VERIFICATION_LIMIT_SECONDS = 1800;

  // Identity provider (ID-token login)
  @IsUrl(urlOpts)
  IDP_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  IDP_CLIENT_ID?: string;

  @Transform(toList)
  @IsString({ each: true })
  IDP_ISSUERS: string[] = ['https://accounts.google.com', 'accounts.google.com'];

  @Transform(toBool)
  @IsOptional()
  @IsBoolean()
  SWAGGER_ENABLED?: boolean;
}

export function validateEnv(raw: Record<string, unknown>): Env {
  const env = plainToInstance(Env, raw, { exposeDefaultValues: true });
  const errors = validateSync(env, { whitelist: false, forbidUnknownValues: false });
  const problems = errors.map(
    (e) => `  ${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`,
  );
  if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
    problems.push('  SESSION_SECRET: required when NODE_ENV=production (at least 32 characters)');
  }
  if (env.NODE_ENV === 'production' && !env.ENCRYPTION_KEY) {
    problems.push('  ENCRYPTION_KEY: required when NODE_ENV=production');
  }
  if (problems.length) {
    throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  }
  return env;
}
