import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Clock, DomainError } from '../../common';
import { Env } from '../../config';
import { UserRepository } from '../users/user.repository';
import { destroySession, regenerate, saveSession } from './session-control';
import { SESSION_COOKIE, sessionCookieOptions } from './session-cookie';
import { SessionRegistry } from './session-registry.service';

/**
 * Every change of who a session belongs to goes through here. Each login gets a new session id
 * (the old one is destroyed in the store), so an id known before login is worthless after it.
 */
@Injectable()
export class SessionService {
  constructor(
    private readonly registry: SessionRegistry,
    private readonly env: Env,
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {}

  /** A fully authenticated session for the user, under a fresh id; never a system account's. */
  async logIn(req: Request, userId: string, extra: { temporaryPasswordId?: string } = {}) {
    if ((await this.users.find({ id: userId }))?.system) {
      throw DomainError.unauthorized('this account cannot log in');
    }
    await regenerate(req);
    req.session.userId = userId;
    req.session.authenticatedAt = this.clock.now().toISOString();
    if (extra.temporaryPasswordId) req.session.temporaryPasswordId = extra.temporaryPasswordId;
    await saveSession(req);
    await this.registry.add(userId, req.sessionID);
  }

  /** Password verified, second factor owed: a fresh session that is not authenticated yet. */
  async awaitSecondFactor(req: Request, userId: string, extra: { temporaryPasswordId?: string }) {
    await regenerate(req);
    req.session.pendingTwoFactorUserId = userId;
    req.session.pendingTwoFactorAt = this.clock.now().toISOString();
    if (extra.temporaryPasswordId) req.session.temporaryPasswordId = extra.temporaryPasswordId;
    await saveSession(req);
  }

  async logOut(req: Request, res: Response) {
    const userId = req.session.userId;
    const sessionId = req.sessionID;
    await destroySession(req);
    if (userId) await this.registry.remove(userId, sessionId);
    res.clearCookie(SESSION_COOKIE, sessionCookieOptions(this.env));
  }

  /** Ends every session of the user but the caller's (after a password change). */
  endOtherSessions(userId: string, currentSessionId: string) {
    return this.registry.endAllExcept(userId, currentSessionId);
  }
}
