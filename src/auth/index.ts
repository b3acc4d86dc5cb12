export { AuthModule } from './auth.module';
export { UsersModule } from './users/users.module';
export { UsersDirectory } from './users/users.directory';
export type { UserSummary } from './users/users.directory';
export { SESSION_COOKIE, sessionCookieOptions, sessionMiddleware } from './sessions/session-cookie';
export { AccountProvisioning } from './registration/account-provisioning.service';
export { SystemAccounts } from './system/system-accounts.service';
export { SystemSessions } from './system/system-sessions.service';
export type { SystemSession } from './system/system-sessions.service';
export { IdpOAuthModule } from './idp/oauth/idp-oauth.module';
export { IdpOAuth, CONTACTS_SCOPE, DRIVE_SCOPE, PROVIDER_TIMEOUT_MS } from './idp/oauth/idp-oauth';
export type { Authorization, IdpPurpose } from './idp/oauth/idp-oauth';
export { IdpConfiguredGuard, missingIdpVariable } from './idp/oauth/idp-configured.guard';
export {
  describeFailure,
  providerFailure,
  providerUnavailable,
  unexpected,
} from './idp/oauth/idp-errors';
export type { ProviderFailure } from './idp/oauth/idp-errors';
export { IdpGrantSeal } from './idp/oauth/idp-grant-seal';
export type { IdpGrant, StoredIdpGrant } from './idp/oauth/idp-grant-seal';
