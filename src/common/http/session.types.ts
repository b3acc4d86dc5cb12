import 'express-session';

declare module 'express-session' {
  interface SessionData {
    /** Set once the user is fully authenticated (password and, when enabled, 2FA). */
    userId?: string;
    /** Password verified, second factor still owed. */
    pendingTwoFactorUserId?: string;
    /** When the password step of a pending 2FA login succeeded (ISO); it expires after 5 minutes. */
    pendingTwoFactorAt?: string;
    /** 2FA secret being set up, encrypted, until the user confirms it with a token. */
    pendingTwoFactorSecret?: string;
    authenticatedAt?: string;
    /** The session began with this temporary password: it stands in for the current password. */
    temporaryPasswordId?: string;
    /**
     * The pending authorization request of the identity provider's contacts (referral): its
     * `state`, the PKCE code verifier, and when it expires (epoch ms). Used up by the first
     * `POST /v1/idp/connect`.
     */
    idpContactsAuth?: { state: string; codeVerifier: string; expiresAt: number };
    /**
     * The pending authorizations of the cloud-drive sync, one per organization (a user may connect
     * several in one session): each used up by that organization's `POST .../google-drive/connect`.
     */
    idpDriveAuth?: Record<string, { state: string; codeVerifier: string; expiresAt: number }>;
  }
}

export {};
