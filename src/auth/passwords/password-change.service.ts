import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource, IsNull } from 'typeorm';
import { AppError, HttpError } from '../../common/errors/app-error';
import { LoginThrottle } from '../login/login-throttle.service';
import { SessionService } from '../sessions/session.service';
import { clientIp } from '../users/client-ip';
import { User } from '../users/user.entity';
import { PasswordHasher } from './password-hasher';
import { TemporaryPassword } from './temporary-password.entity';
import { TemporaryPasswordService } from './temporary-password.service';

/** `PUT /v1/user/password`: a new password; every other session of the user ends. */
@Injectable()
export class PasswordChangeService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly temporary: TemporaryPasswordService,
    private readonly throttle: LoginThrottle,
    private readonly sessions: SessionService,
  ) {}

  async change(req: Request, currentPassword: string, newPassword: string): Promise<void> {
    const userId = req.session.userId!;
    const user = await this.dataSource.getRepository(User).findOneBy({ id: userId });
    if (!user) throw HttpError.unauthorized();
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
      throw new AppError('invalidCredentials');
    }

    const passwordHash = await this.hasher.hash(newPassword);
    await this.dataSource.transaction(async (manager) => {
      await manager.update(User, { id: userId }, { passwordHash });
      // Any temporary password still pending is void once the user chose a password.
      await manager.update(TemporaryPassword, { userId, usedAt: IsNull() }, { usedAt: new Date() });
    });
    delete req.session.temporaryPasswordId;
    await this.sessions.endOtherSessions(userId, req.sessionID);
  }
}
