import 'express-session';

declare module 'express-session' {
  interface SessionData {
    /** Set once the user is fully authenticated (password and, when enabled, 2FA). */
    userId?: string;
    /** Password verified, second factor still owed. */
    pendingTwoFactorUserId?: string;
    /** 2FA secret being set up, encrypted, until the user confirms it with a token. */
    pendingTwoFactorSecret?: string;
    authenticatedAt?: string;
  }
}

export {};
