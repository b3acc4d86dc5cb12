import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { clientIp } from '../../common';
import { Tx, UnitOfWork } from '../../events';
import { LegalRecordsService } from '../../profiles';
import { LoginResult } from '../login/login.service';
import { TwoFactorThrottle } from '../two-factor/two-factor-throttle.service';
import { registeredEvent } from '../registration/registered-event';
import { BlocklistService } from '../registration/blocklist.service';
import { SessionService } from '../sessions/session.service';
import { User } from '../users/user.entity';
import { UserRepository } from '../users/user.repository';
import { toUserView } from '../users/user.view';
import { IdentityConflictError, IdpIdentity, IdpTokenVerifier } from './idp-token.verifier';

/**
 * Login with an identity-provider ID token: finds the account by provider subject, else by
 * verified e-mail (linking it), else creates a verified account; then starts a session (or, for an
 * account with 2FA, a session waiting for its second factor).
 */
@Injectable()
export class IdpLoginService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly verifier: IdpTokenVerifier,
    private readonly blocklist: BlocklistService,
    private readonly records: LegalRecordsService,
    private readonly sessions: SessionService,
    private readonly twoFactorThrottle: TwoFactorThrottle,
  ) {}

  /**
   * Throws IdpTokenError (bad token, or no provider configured: without IDP_CLIENT_ID no token
   * verifies) or IdentityConflictError; other errors are unexpected.
   */
  async logIn(req: Request, token: string): Promise<LoginResult> {
    const identity = await this.verifier.verify(token);
    const ip = clientIp(req);
    const user = await this.uow.run((tx) => this.findOrCreate(tx, identity, ip));
    if (user.twoFactorEnabled) {
      await this.twoFactorThrottle.assertAllowed(user.id);
      await this.sessions.awaitSecondFactor(req, user.id, {});
      return { twoFactorRequired: true };
    }
    await this.sessions.logIn(req, user.id);
    return { user: toUserView(user) };
  }

  private async findOrCreate(tx: Tx, identity: IdpIdentity, ip: string): Promise<User> {
    const bySubject = await this.users.lock({ idpSubject: identity.subject }, tx);
    if (bySubject) return bySubject;

    const byEmail = await this.users.lock({ email: identity.email }, tx);
    if (byEmail) {
      if (byEmail.idpSubject && byEmail.idpSubject !== identity.subject) {
        throw new IdentityConflictError('account linked to another provider identity');
      }
      byEmail.idpSubject = identity.subject;
      if (!byEmail.emailVerified) {
        // Someone registered this address without proving it; the provider just did. A password
        // chosen by that someone must not keep working.
        byEmail.emailVerified = true;
        byEmail.passwordHash = null;
      }
      return this.users.save(byEmail, tx);
    }

    await this.blocklist.assertAllowed(tx, identity.email);
    const id = randomUUID();
    const records = await this.records.createPersonal(tx, {
      userId: id,
      email: identity.email,
      name: identity.name,
    });
    const user = await this.users.add(
      {
        id,
        email: identity.email,
        name: identity.name,
        passwordHash: null,
        emailVerified: true,
        twoFactorEnabled: false,
        idpSubject: identity.subject,
        registrationIp: ip,
        ...records,
      },
      tx,
    );
    await tx.record(registeredEvent(user, 'idp'));
    return user;
  }
}
