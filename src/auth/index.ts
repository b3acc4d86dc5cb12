export { AuthModule } from './auth.module';
export { UsersModule } from './users/users.module';
export { UsersDirectory } from './users/users.directory';
export type { UserSummary } from './users/users.directory';
export { SESSION_COOKIE, sessionCookieOptions, sessionMiddleware } from './sessions/session-cookie';
export { AccountProvisioning } from './registration/account-provisioning.service';
export { SystemAccounts } from './system/system-accounts.service';
export { SystemSessions } from './system/system-sessions.service';
export type { SystemSession } from './system/system-sessions.service';
