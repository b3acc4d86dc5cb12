import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { AggregateRepository } from '../../database';
import { MagicLinkToken } from './magic-link-token.entity';

@Injectable()
export class MagicLinkTokenRepository extends AggregateRepository<MagicLinkToken> {
  constructor(@InjectRepository(MagicLinkToken) tokens: Repository<MagicLinkToken>) {
    super(tokens);
  }

  async insert(token: { userId: string; tokenDigest: string; expiresAt: Date }): Promise<void> {
    await this.repository.insert(token);
  }

  /** Marks the token used if it is unused and unexpired at `now`; returns its user id. */
  async consume(tokenDigest: string, now: Date): Promise<string | null> {
    // One conditional UPDATE: of two simultaneous uses, exactly one gets the row back.
    const result = await this.repository
      .createQueryBuilder()
      .update()
      .set({ usedAt: now })
      .where({ tokenDigest, usedAt: IsNull(), expiresAt: MoreThan(now) })
      .returning(['userId'])
      .execute();
    const row = (result.raw as { user_id: string }[])[0];
    return row?.user_id ?? null;
  }
}
