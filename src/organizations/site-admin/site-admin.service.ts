import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { User } from '../../auth/users/user.entity';
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
 * Site administration rights (`canReadSite`). Granted and revoked by the CLI
 * (`npm run cli -- site-admin:grant <email>`); a plain class over a DataSource so the CLI can use
 * it without booting the whole application.
 */
@Injectable()
export class SiteAdminService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  grant(email: string): Promise<SiteAdminChange> {
    return this.dataSource.transaction(async (m) => {
      const user = await this.findUser(m.getRepository(User), email);
      const result = await m
        .createQueryBuilder()
        .insert()
        .into(SiteAdmin)
        .values({ userId: user.id })
        .orIgnore()
        .returning(['userId'])
        .execute();
      return { userId: user.id, email: user.email, changed: result.raw.length > 0 };
    });
  }

  revoke(email: string): Promise<SiteAdminChange> {
    return this.dataSource.transaction(async (m) => {
      const user = await this.findUser(m.getRepository(User), email);
      const result = await m.delete(SiteAdmin, { userId: user.id });
      return { userId: user.id, email: user.email, changed: (result.affected ?? 0) > 0 };
    });
  }

  private async findUser(users: ReturnType<DataSource['getRepository']>, email: string) {
    const normalised = email.trim().toLowerCase();
    const user = (await users.findOne({
      where: { email: normalised },
      select: { id: true, email: true },
    })) as Pick<User, 'id' | 'email'> | null;
    if (!user) throw new UnknownUserError(normalised);
    return user;
  }
}
