import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import * as QRCode from 'qrcode';
import { Clock, DomainError, SecretBox } from '../../common';
import { UnitOfWork } from '../../events';
import { SessionService } from '../sessions/session.service';
import { User } from '../users/user.entity';
import { UserRepository } from '../users/user.repository';
import { toUserView, UserView } from '../users/user.view';
import { generateTotpSecret, isFreshStep, matchTotpStep, totpKeyUri } from './totp';
import { TwoFactorThrottle } from './two-factor-throttle.service';

/** How long the password step of a login waits for its second factor. */
export const PENDING_LOGIN_MS = 5 * 60 * 1000;

export interface TwoFactorSetup {
  secret: string;
  otpauthUrl: string;
  qrCode: string;
}

// Associated data binds each sealed secret to its use and user: a copied column does not decrypt.
const setupAad = (userId: string) => `2fa-setup:${userId}`;
const secretAad = (userId: string) => `2fa:${userId}`;

/** TOTP second factor: set-up, enabling, and the second step of a login. */
@Injectable()
export class TwoFactorService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly box: SecretBox,
    private readonly throttle: TwoFactorThrottle,
    private readonly sessions: SessionService,
    private readonly clock: Clock,
  ) {}

  /** `GET /v1/user/2fa`: a new secret, kept (sealed) in the session until confirmed. */
  async setUp(req: Request): Promise<TwoFactorSetup> {
    const user = await this.currentUser(req);
    if (user.twoFactorEnabled) {
      throw DomainError.conflict('two-factor authentication is already on');
    }
    const secret = generateTotpSecret();
    req.session.pendingTwoFactorSecret = this.box.encrypt(secret, setupAad(user.id));
    const otpauthUrl = totpKeyUri(user.email, secret);
    const qrCode = await QRCode.toDataURL(otpauthUrl, { type: 'image/png' });
    return { secret, otpauthUrl, qrCode };
  }

  /** `POST /v1/user/2fa`: a token of the pending secret turns 2FA on. */
  async enable(req: Request, token: string): Promise<UserView> {
    const userId = req.session.userId!;
    const sealed = req.session.pendingTwoFactorSecret;
    const secret = sealed ? this.tryDecrypt(sealed, setupAad(userId)) : undefined;
    const step = secret ? matchTotpStep(secret, token, this.clock.nowMs()) : null;
    if (!secret || step === null) throw DomainError.keyed('invalidTwoFactorToken');
    const user = await this.uow.run(async (tx) => {
      const user = await this.users.lock({ id: userId }, tx);
      if (!user) throw DomainError.unauthorized('the account no longer exists');
      if (user.twoFactorEnabled) {
        throw DomainError.conflict('two-factor authentication is already on');
      }
      user.twoFactorEnabled = true;
      user.twoFactorSecret = this.box.encrypt(secret, secretAad(userId));
      // The set-up token is spent: it cannot also open a login.
      user.twoFactorLastStep = step;
      return this.users.save(user, tx);
    });
    delete req.session.pendingTwoFactorSecret;
    return toUserView(user);
  }

  /**
   * `POST /v1/user/2fa/verify`: completes a login waiting for its second factor when there is one;
   * otherwise, for an authenticated session, checks the token (`checkToken`). Neither: 401.
   */
  async verify(req: Request, token: string): Promise<{ user: UserView } | { valid: true }> {
    if (req.session.pendingTwoFactorUserId) {
      return { user: await this.completeLogin(req, token) };
    }
    if (req.session.userId) return this.checkToken(req, token);
    throw DomainError.unauthorized('no login is waiting for a second factor and no session');
  }

  /**
   * Checks a token of the logged-in user without changing the account: against the enabled
   * secret when 2FA is on (a step once accepted is spent, as at login), else against the secret
   * of `GET /v1/user/2fa` not yet enabled. Enabling stays with `POST /v1/user/2fa`. Wrong tokens
   * (also when there is no secret to check against) count toward the account's TwoFactorThrottle.
   */
  async checkToken(req: Request, token: string): Promise<{ valid: true }> {
    const user = await this.currentUser(req);
    await this.throttle.assertAllowed(user.id);
    let ok: boolean;
    if (user.twoFactorEnabled && user.twoFactorSecret) {
      const secret = this.tryDecrypt(user.twoFactorSecret, secretAad(user.id));
      const step = secret ? matchTotpStep(secret, token, this.clock.nowMs()) : null;
      ok =
        step !== null &&
        isFreshStep(step, user.twoFactorLastStep) &&
        (await this.users.spendTotpStep(user.id, step));
    } else {
      const sealed = req.session.pendingTwoFactorSecret;
      const secret = sealed ? this.tryDecrypt(sealed, setupAad(user.id)) : undefined;
      ok = secret !== undefined && matchTotpStep(secret, token, this.clock.nowMs()) !== null;
    }
    if (!ok) {
      await this.throttle.recordFailure(user.id);
      throw DomainError.keyed('invalidTwoFactorToken');
    }
    await this.throttle.reset(user.id);
    return { valid: true };
  }

  /**
   * The pending-login case of `verify`: completes a login that is waiting for its second factor.
   * Wrong codes are counted per account (TwoFactorThrottle); while locked, even the right code is
   * refused.
   */
  async completeLogin(req: Request, token: string): Promise<UserView> {
    const userId = req.session.pendingTwoFactorUserId;
    const since = Date.parse(req.session.pendingTwoFactorAt ?? '');
    if (!userId || !(this.clock.nowMs() - since < PENDING_LOGIN_MS)) {
      throw DomainError.unauthorized('no login is waiting for a second factor');
    }
    const user = await this.users.find({ id: userId });
    if (!user?.twoFactorEnabled || !user.twoFactorSecret) {
      throw DomainError.unauthorized('no login is waiting for a second factor');
    }
    await this.throttle.assertAllowed(user.id);
    const secret = this.tryDecrypt(user.twoFactorSecret, secretAad(user.id));
    const step = secret ? matchTotpStep(secret, token, this.clock.nowMs()) : null;
    if (
      step === null ||
      !isFreshStep(step, user.twoFactorLastStep) ||
      !(await this.users.spendTotpStep(user.id, step))
    ) {
      await this.throttle.recordFailure(user.id);
      throw DomainError.keyed('invalidTwoFactorToken');
    }
    await this.throttle.reset(user.id);
    await this.sessions.logIn(req, user.id, {
      temporaryPasswordId: req.session.temporaryPasswordId,
    });
    return toUserView(user);
  }

  private async currentUser(req: Request): Promise<User> {
    const user = await this.users.find({ id: req.session.userId! });
    if (!user) throw DomainError.unauthorized('the account no longer exists');
    return user;
  }

  private tryDecrypt(sealed: string, aad: string): string | undefined {
    try {
      return this.box.decrypt(sealed, aad);
    } catch {
      return undefined;
    }
  }
}
