import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Min, MinLength } from 'class-validator';
import type { PlatformConfig } from './platform';
import { configSlice } from './slice';
import { emptyToUndefined, integer, toInt, toList } from './variable-rules';

/** Sessions, registration, e-mail verification and the login throttle. */
export class AuthConfig {
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'SESSION_SECRET must be at least 32 characters' })
  SESSION_SECRET?: string;

  @Transform(toInt)
  @IsInt(integer(1000))
  @Min(1000, integer(1000))
  API_SESSION_MAX_AGE = 604_800_000;

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

  /**
   * Failed password checks (login, password change) allowed from one client IP within 15 minutes.
   * Above the per-account limit of 10: many users may share an address (NAT).
   */
  @Transform(toInt)
  @IsInt(integer(11))
  @Min(11, integer(11))
  LOGIN_IP_FAILURE_LIMIT = 100;
}

export const authSlice = configSlice({
  name: 'auth',
  schema: AuthConfig,
  check: (env: AuthConfig & PlatformConfig) =>
    env.NODE_ENV === 'production' && !env.SESSION_SECRET
      ? ['  SESSION_SECRET: required when NODE_ENV=production (at least 32 characters)']
      : [],
});
