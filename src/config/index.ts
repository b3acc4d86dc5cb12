export { ConfigModule } from './config.module';
export { agentEnabled, Env, LOG_LEVELS, validateEnv } from './env.schema';
export type { LogLevelName } from './env.schema';
// The slices: a module that reads only its own variables may inject its slice instead of `Env`.
export { AgentConfig } from './agent';
export { AuthConfig } from './auth';
export { BillingConfig } from './billing';
export { ChatConfig } from './chat';
export { DatabaseConfig } from './database';
export { EncryptionConfig } from './encryption';
export { EventsConfig } from './events';
export { HooksConfig } from './hooks';
export { HttpConfig } from './http';
export { IdpConfig } from './idp';
export { ImportsConfig } from './imports';
export { LimitsConfig } from './limits';
export { MailConfig } from './mail';
export { MicrosoftConfig } from './microsoft';
export { PlatformConfig } from './platform';
export { ReadsConfig } from './reads';
export { RedisConfig } from './redis';
export { ReferralConfig } from './referral';
export { StorageConfig } from './storage';
export { WebhooksConfig } from './webhooks';
export { declaredNodeEnv, DEV_SESSION_SECRET, isProduction, loadEnv } from './load-env';
export { parseMailbox } from './mailbox';
export type { ReferralReward } from './referral-rewards';
export type { Mailbox } from './mailbox';
export type { TrustProxy } from './trust-proxy';
export {
  HOOK_CHANNELS,
  HOOK_FIELD_NAMES,
  HOOK_THINKING,
  HOOK_TIMEOUT_SECONDS,
  HOOK_WAKE_MODES,
  isUuid,
  readHookFields,
} from './hook-fields';
export type { HookFields } from './hook-fields';
export {
  HOOK_MAPPING_LITERALS,
  HOOK_PRESET_NAMES,
  hookMappingLabel,
  trimSlashes,
} from './hook-mappings';
export type { HookMapping, HookPresetName } from './hook-mappings';
