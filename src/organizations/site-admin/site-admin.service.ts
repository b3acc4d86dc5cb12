import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { normalizeEmail } from '../../common';
import { UsersDirectory } from '../../auth';
import { SiteAdmin } from './site-admin.entity';

/** No account has this e-mail address. */
export class UnknownUserError extends Error {
  constructor(readonly email: string) {
    super(`No user with e-mail ${email}`);
  }
}

export interface SiteAdminChange {
  userId: string;
  email: string;
  /** False when the grant or revocation was already in place (both are idempotent). */
  changed: boolean;
}

/**
 * Site administration rights (`canReadSite`), granted and revoked from the command line
 * (`npm run cli -- site-admin:grant <email>`).
 */
@Injectable()
export class SiteAdminService {
  constructor(
    @InjectRepository(SiteAdmin) private readonly admins: Repository<SiteAdmin>,
    private readonly users: UsersDirectory,
  ) {}

  async grant(email: string): Promise<SiteAdminChange> {
    const user = await this.findUser(email);
    const result = await this.admins
      .createQueryBuilder()
      .insert()
      .values({ userId: user.id })
      .orIgnore()
      .returning(['userId'])
      .execute();
    return { userId: user.id, email: user.email, changed: result.raw.length > 0 };
  }

  async revoke(email: string): Promise<SiteAdminChange> {
    const user = await this.findUser(email);
    const result = await this.admins.delete({ userId: user.id });
    return { userId: user.id, email: user.email, changed: (result.affected ?? 0) > 0 };
  }

  private async findUser(email: string) {
    const user = await this.users.findByEmail(email);
    if (!user) throw new UnknownUserError(normalizeEmail(email));
    return user;
  }
}
