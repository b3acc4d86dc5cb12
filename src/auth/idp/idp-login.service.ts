import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource, EntityManager } from 'typeorm';
import { HttpError } from '../../common/errors/app-error';
import { PersonalRecordsService } from '../../organizations/personal-records.service';
import { LoginResult } from '../login/login.service';
import { BlocklistService } from '../registration/blocklist.service';
import { SessionService } from '../sessions/session.service';
import { clientIp } from '../users/client-ip';
import { User } from '../users/user.entity';
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
    private readonly dataSource: DataSource,
    private readonly verifier: IdpTokenVerifier,
    private readonly blocklist: BlocklistService,
    private readonly personal: PersonalRecordsService,
    private readonly sessions: SessionService,
  ) {}

  /** When false, the idp routes answer 404 (the integration is not configured). */
  get enabled() {
    return this.verifier.configured;
  }

  /** Throws IdpTokenError (bad token) or IdentityConflictError; other errors are unexpected. */
  async logIn(req: Request, token: string): Promise<LoginResult> {
    if (!this.enabled) throw HttpError.notFound();
    const identity = await this.verifier.verify(token);
    const ip = clientIp(req);
    const user = await this.dataSource.transaction((manager) =>
      this.findOrCreate(manager, identity, ip),
    );
    if (user.twoFactorEnabled) {
      await this.sessions.awaitSecondFactor(req, user.id, {});
      return { twoFactorRequired: true };
    }
    await this.sessions.logIn(req, user.id);
    return { user: toUserView(user) };
  }

  private async findOrCreate(manager: EntityManager, identity: IdpIdentity, ip: string) {
    const lock = { mode: 'pessimistic_write' } as const;
    const bySubject = await manager.findOne(User, {
      where: { idpSubject: identity.subject },
      lock,
    });
    if (bySubject) return bySubject;

    const byEmail = await manager.findOne(User, { where: { email: identity.email }, lock });
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
      return manager.save(byEmail);
    }

    await this.blocklist.assertAllowed(manager, identity.email);
    const id = randomUUID();
    const records = await this.personal.createForUser(manager, {
      userId: id,
      email: identity.email,
      name: identity.name,
    });
    return manager.save(
      manager.create(User, {
        id,
        email: identity.email,
        name: identity.name,
        passwordHash: null,
        emailVerified: true,
        twoFactorEnabled: false,
        idpSubject: identity.subject,
        registrationIp: ip,
        ...records,
      }),
    );
  }
}
