import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { MoreThan } from 'typeorm';
import { InTransaction, lockUntilCommit } from '../../database';
import { ReferralInvitationMail } from './referral-invitation-mail.entity';

export const addressHash = (email: string) => createHash('sha256').update(email).digest('hex');

/** The invitation mails each address received, whoever sent them. */
@Injectable()
export class InvitationMailsRepository {
  /**
   * Serializes the mails to one address until the transaction ends (two referrers at once), then
   * answers the send times of its mails since `since`, oldest first.
   */
  async lockAndList(email: string, since: Date, tx: InTransaction): Promise<Date[]> {
    const hash = addressHash(email);
    await lockUntilCommit(tx.manager, `referral-address:${hash}`);
    const rows = await tx.manager.find(ReferralInvitationMail, {
      select: { sentAt: true },
      where: { addressHash: hash, sentAt: MoreThan(since) },
      order: { sentAt: 'ASC' },
    });
    return rows.map((r) => r.sentAt);
  }

  async add(email: string, sentAt: Date, tx: InTransaction): Promise<void> {
    await tx.manager.insert(ReferralInvitationMail, { addressHash: addressHash(email), sentAt });
  }
}
