import { Transform } from 'class-transformer';
import { IsOptional, Matches } from 'class-validator';
import type { PlatformConfig } from './platform';
import { configSlice } from './slice';
import { emptyToUndefined } from './variable-rules';

/** The key of the secrets kept at rest (2FA secrets, provider tokens). */
export class EncryptionConfig {
  /** 32 bytes, base64 or hex: key of the AES-256-GCM encryption of secrets at rest. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, {
    message: 'ENCRYPTION_KEY must be 32 bytes as 64 hex characters or base64',
  })
  ENCRYPTION_KEY?: string;
}

export const encryptionSlice = configSlice({
  name: 'encryption',
  schema: EncryptionConfig,
  check: (env: EncryptionConfig & PlatformConfig) =>
    env.NODE_ENV === 'production' && !env.ENCRYPTION_KEY
      ? ['  ENCRYPTION_KEY: required when NODE_ENV=production (64 hex characters)']
      : [],
});
