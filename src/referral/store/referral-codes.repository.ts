import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { InTransaction } from '../../database';
import { ReferralCode } from './referral-code.entity';
import { ReferralLink } from './referral-link.entity';

/** Users' own codes and who referred whom. */
@Injectable()
export class ReferralCodesRepository {
  constructor(
    @InjectRepository(ReferralCode) private readonly codes: Repository<ReferralCode>,
    @InjectRepository(ReferralLink) private readonly links: Repository<ReferralLink>,
  ) {}

  async codeOf(userId: string): Promise<string | null> {
    return (await this.codes.findOneBy({ userId }))?.code ?? null;
  }

  /** Adds the user's code unless they have one; false when `code` is taken by someone else. */
  async addCode(userId: string, code: string): Promise<boolean> {
    const result = await this.codes.query(
      `INSERT INTO referral_code (user_id, code) VALUES ($1, $2)
       ON CONFLICT DO NOTHING RETURNING user_id`,
      [userId, code],
    );
    return (result as unknown[]).length > 0 || (await this.codeOf(userId)) !== null;
  }

  async ownerOf(code: string): Promise<string | null> {
    return (await this.codes.findOneBy({ code }))?.userId ?? null;
  }

  /** Links the invitee to the referrer unless someone already referred them. */
  async link(inviteeUserId: string, referrerUserId: string, tx: InTransaction): Promise<boolean> {
    const result = await tx.manager.query(
      `INSERT INTO referral_link (invitee_user_id, referrer_user_id) VALUES ($1, $2)
       ON CONFLICT DO NOTHING RETURNING invitee_user_id`,
      [inviteeUserId, referrerUserId],
    );
    return (result as unknown[]).length > 0;
  }

  async referrerOf(inviteeUserId: string, tx?: InTransaction): Promise<string | null> {
    const repo = tx?.manager.getRepository(ReferralLink) ?? this.links;
    return (await repo.findOneBy({ inviteeUserId }))?.referrerUserId ?? null;
  }

  /** How many users registered with the referrer's code. */
  countReferred(referrerUserId: string): Promise<number> {
    return this.links.countBy({ referrerUserId });
  }
}
