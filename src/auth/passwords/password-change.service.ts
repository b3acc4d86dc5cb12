import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { clientIp, DomainError } from '../../common';
import { UnitOfWork } from '../../events';
import { LoginThrottle } from '../login/login-throttle.service';
import { SessionService } from '../sessions/session.service';
import { UserRepository } from '../users/user.repository';
import { PasswordHasher } from './password-hasher';
import { TemporaryPasswordRepository } from './temporary-password.repository';
import { TemporaryPasswordService } from './temporary-password.service';

/** `PUT /v1/user/password`: a new password; every other session of the user ends. */
@Injectable()
export class PasswordChangeService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly temporaryPasswords: TemporaryPasswordRepository,
    private readonly hasher: PasswordHasher,
    private readonly temporary: TemporaryPasswordService,
    private readonly throttle: LoginThrottle,
    private readonly sessions: SessionService,
  ) {}

  async change(req: Request, currentPassword: string, newPassword: string): Promise<void> {
    const userId = req.session.userId!;
    const user = await this.users.find({ id: userId });
    if (!user) throw DomainError.unauthorized('the account no longer exists');
    const ip = clientIp(req);
    // Guessing the current password from a stolen session is throttled like a login.
    await this.throttle.assertAllowed(user.email, ip);
    const ok =
      (await this.hasher.verify(user.passwordHash, currentPassword)) ||
      (await this.temporary.matchesSessionPassword(
        userId,
        req.session.temporaryPasswordId,
        currentPassword,
      ));
    if (!ok) {
      await this.throttle.recordFailure(user.email, ip);
      throw DomainError.keyed('invalidCredentials');
    }

    const passwordHash = await this.hasher.hash(newPassword);
    await this.uow.run(async (tx) => {
      await this.users.update(userId, { passwordHash }, tx);
      // Any temporary password still pending is void once the user chose a password.
      await this.temporaryPasswords.voidPending(userId, tx);
    });
    delete req.session.temporaryPasswordId;
    await this.sessions.endOtherSessions(userId, req.sessionID);
  }
}
