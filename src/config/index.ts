export { ConfigModule } from './config.module';
export { agentEnabled, Env, LOG_LEVELS, validateEnv } from './env.schema';
export type { LogLevelName } from './env.schema';
export { declaredNodeEnv, DEV_SESSION_SECRET, isProduction, loadEnv } from './load-env';
export { parseMailbox } from './mailbox';
export type { Mailbox } from './mailbox';
export type { TrustProxy } from './trust-proxy';
