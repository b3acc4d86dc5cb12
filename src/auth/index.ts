export { AuthModule } from './auth.module';
export { UsersModule } from './users/users.module';
export { UsersDirectory } from './users/users.directory';
export type { UserSummary } from './users/users.directory';
export { SESSION_COOKIE, sessionCookieOptions, sessionMiddleware } from './sessions/session-cookie';
export { AccountProvisioning } from './registration/account-provisioning.service';
