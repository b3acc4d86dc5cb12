import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { clientIp, DomainError, normalizeEmail } from '../../common';
import { PasswordHasher } from '../passwords/password-hasher';
import { TemporaryPasswordService } from '../passwords/temporary-password.service';
import { SessionService } from '../sessions/session.service';
import { TwoFactorThrottle } from '../two-factor/two-factor-throttle.service';
import { User } from '../users/user.entity';
import { UserRepository } from '../users/user.repository';
import { toUserView, UserView } from '../users/user.view';
import { LoginThrottle } from './login-throttle.service';

export type LoginResult = { user: UserView } | { twoFactorRequired: true };

/** `POST /v1/user/login`: e-mail and password (or a mailed temporary password). */
@Injectable()
export class LoginService {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly temporary: TemporaryPasswordService,
    private readonly throttle: LoginThrottle,
    private readonly twoFactorThrottle: TwoFactorThrottle,
    private readonly sessions: SessionService,
  ) {}

  async logIn(req: Request, rawEmail: string, password: string): Promise<LoginResult> {
    const email = normalizeEmail(rawEmail);
    const ip = clientIp(req);
    await this.throttle.assertAllowed(email, ip);

    const user = await this.users.find({ email });
    const check = await this.checkPassword(user, password);
    if (!user || !check.ok) {
      await this.throttle.recordFailure(email, ip);
      // Same key, same status, about the same time for an unknown address and a wrong password.
      throw DomainError.keyed('invalidCredentials');
    }
    // A temporary password arrived by mail, which proves the address as well as a code does.
    if (check.temporaryPasswordId) user.emailVerified = true;
    if (!user.emailVerified) throw DomainError.keyed('emailNotVerified');
    await this.throttle.reset(email);

    const extra = { temporaryPasswordId: check.temporaryPasswordId };
    if (user.twoFactorEnabled) {
      // While the second factor is locked, a password step would only lead to a refused code.
      await this.twoFactorThrottle.assertAllowed(user.id);
      await this.sessions.awaitSecondFactor(req, user.id, extra);
      return { twoFactorRequired: true };
    }
    await this.sessions.logIn(req, user.id, extra);
    return { user: toUserView(user) };
  }

  /** The account password, else an active temporary password (consumed by this login). */
  private async checkPassword(
    user: User | null,
    password: string,
  ): Promise<{ ok: boolean; temporaryPasswordId?: string }> {
    if (!user) {
      await this.hasher.burn(password);
      return { ok: false };
    }
    if (user.passwordHash && (await this.hasher.verify(user.passwordHash, password))) {
      return { ok: true };
    }
    const temporaryPasswordId = await this.temporary.consume(user.id, password);
    return temporaryPasswordId ? { ok: true, temporaryPasswordId } : { ok: false };
  }
}
