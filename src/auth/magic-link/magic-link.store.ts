import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, MoreThan } from 'typeorm';
import { User } from '../users/user.entity';
import { MagicLinkToken } from './magic-link-token.entity';

/** Persistence of magic-link tokens, behind an interface so the rules are unit-testable. */
export abstract class MagicLinkStore {
  abstract findUserIdByEmail(email: string): Promise<string | null>;
  abstract save(token: { userId: string; tokenDigest: string; expiresAt: Date }): Promise<void>;
  /** Marks the token used if it is unused and unexpired at `now`; returns its user id. */
  abstract consume(tokenDigest: string, now: Date): Promise<string | null>;
}

@Injectable()
export class TypeOrmMagicLinkStore extends MagicLinkStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async findUserIdByEmail(email: string) {
    const user = await this.dataSource.getRepository(User).findOne({
      where: { email },
      select: { id: true },
    });
    return user?.id ?? null;
  }

  async save(token: { userId: string; tokenDigest: string; expiresAt: Date }) {
    await this.dataSource.getRepository(MagicLinkToken).insert(token);
  }

  async consume(tokenDigest: string, now: Date) {
    // One conditional UPDATE: of two simultaneous uses, exactly one gets the row back.
    const result = await this.dataSource
      .createQueryBuilder()
      .update(MagicLinkToken)
      .set({ usedAt: now })
      .where({ tokenDigest, usedAt: IsNull(), expiresAt: MoreThan(now) })
      .returning(['userId'])
      .execute();
    const row = (result.raw as { user_id: string }[])[0];
    return row?.user_id ?? null;
  }
}
