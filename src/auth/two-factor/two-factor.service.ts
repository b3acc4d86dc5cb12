import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import * as QRCode from 'qrcode';
import { DataSource } from 'typeorm';
import { AppError, HttpError } from '../../common/errors/app-error';
import { SecretBox } from '../../common/crypto/secret-box';
import { LoginThrottle } from '../login/login-throttle.service';
import { SessionService } from '../sessions/session.service';
import { clientIp } from '../users/client-ip';
import { User } from '../users/user.entity';
import { toUserView, UserView } from '../users/user.view';
import { generateTotpSecret, isFreshStep, matchTotpStep, totpKeyUri } from './totp';

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
    private readonly dataSource: DataSource,
    private readonly box: SecretBox,
    private readonly throttle: LoginThrottle,
    private readonly sessions: SessionService,
  ) {}

  /** `GET /v1/user/2fa`: a new secret, kept (sealed) in the session until confirmed. */
  async setUp(req: Request): Promise<TwoFactorSetup> {
    const user = await this.currentUser(req);
    if (user.twoFactorEnabled) throw HttpError.conflict('two-factor authentication is already on');
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
    const step = secret ? matchTotpStep(secret, token) : null;
    if (!secret || step === null) throw new AppError('invalidTwoFactorToken');
    const user = await this.dataSource.transaction(async (manager) => {
      const user = await manager.findOne(User, {
        where: { id: userId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!user) throw HttpError.unauthorized();
      if (user.twoFactorEnabled)
        throw HttpError.conflict('two-factor authentication is already on');
      user.twoFactorEnabled = true;
      user.twoFactorSecret = this.box.encrypt(secret, secretAad(userId));
      // The set-up token is spent: it cannot also open a login.
      user.twoFactorLastStep = step;
      return manager.save(user);
    });
    delete req.session.pendingTwoFactorSecret;
    return toUserView(user);
  }

  /** `POST /v1/user/2fa/verify`: completes a login that is waiting for its second factor. */
  async completeLogin(req: Request, token: string): Promise<UserView> {
    const userId = req.session.pendingTwoFactorUserId;
    const since = Date.parse(req.session.pendingTwoFactorAt ?? '');
    if (!userId || !(Date.now() - since < PENDING_LOGIN_MS)) throw HttpError.unauthorized();
    const user = await this.dataSource.getRepository(User).findOneBy({ id: userId });
    if (!user?.twoFactorEnabled || !user.twoFactorSecret) throw HttpError.unauthorized();

    const ip = clientIp(req);
    await this.throttle.assertAllowed(user.email, ip);
    const secret = this.tryDecrypt(user.twoFactorSecret, secretAad(user.id));
    const step = secret ? matchTotpStep(secret, token) : null;
    if (
      step === null ||
      !isFreshStep(step, user.twoFactorLastStep) ||
      !(await this.spend(user.id, step))
    ) {
      await this.throttle.recordFailure(user.email, ip);
      throw new AppError('invalidTwoFactorToken');
    }
    await this.sessions.logIn(req, user.id, {
      temporaryPasswordId: req.session.temporaryPasswordId,
    });
    return toUserView(user);
  }

  /** Records `step` as used unless it (or a later one) already was: atomic against races. */
  private async spend(userId: string, step: number): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .update(User)
      .set({ twoFactorLastStep: step })
      .where('id = :userId', { userId })
      .andWhere('(two_factor_last_step IS NULL OR two_factor_last_step < :step)', { step })
      .execute();
    return result.affected === 1;
  }

  private async currentUser(req: Request): Promise<User> {
    const user = await this.dataSource.getRepository(User).findOneBy({ id: req.session.userId! });
    if (!user) throw HttpError.unauthorized();
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
