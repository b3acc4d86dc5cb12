import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { QueryFailedError } from 'typeorm';
import { UsersDirectory } from '../../auth';
import { Clock, DomainError, RateLimiter } from '../../common';
import { Env } from '../../config';
import type { InTransaction } from '../../database';
import { UnitOfWork } from '../../events';
import { MailService } from '../../mail';
import { RedisConnections } from '../../redis';
import { ReferralCodes } from '../codes/referral-codes.service';
import { InvitationMailsRepository } from '../store/invitation-mails.repository';
import { InvitationsRepository } from '../store/invitations.repository';
import { ReferralInvitationView, toInvitationView } from './invitation.view';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** An address is mailed again by the same referrer at most once in this time. */
export const RESEND_AFTER_MS = DAY;
/** Invitation mails a day: per account, and per client address (many accounts, one sender). */
export const INVITATIONS_PER_ACCOUNT = { limit: 50, windowMs: DAY };
export const INVITATIONS_PER_IP = { limit: 200, windowMs: DAY };
/**
 * Mails one address receives in any 30 days, whoever sends them: many referrers (or accounts
 * made for it) cannot flood an inbox. Counted exactly over the sliding period, in PostgreSQL.
 */
export const INVITATIONS_PER_ADDRESS = { limit: 3, windowMs: 30 * DAY };

export interface SentInvitation {
  invitation: ReferralInvitationView;
  /** False when an earlier invitation to the address was mailed again. */
  created: boolean;
}

/** Referral invitations: mailed with the referrer's code, one per referrer and address. */
@Injectable()
export class ReferralInvitations implements OnModuleDestroy {
  private readonly logger = new Logger('ReferralInvitations');
  private readonly redis: Redis;
  private readonly perAccount: RateLimiter;
  private readonly perIp: RateLimiter;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly invitations: InvitationsRepository,
    private readonly mails: InvitationMailsRepository,
    private readonly codes: ReferralCodes,
    private readonly users: UsersDirectory,
    private readonly mail: MailService,
    private readonly env: Env,
    connections: RedisConnections,
    private readonly clock: Clock,
  ) {
    this.redis = connections.session();
    this.perAccount = new RateLimiter(
      this.redis,
      `${connections.prefix}referral-invitations:user:`,
      INVITATIONS_PER_ACCOUNT,
      clock,
    );
    this.perIp = new RateLimiter(
      this.redis,
      `${connections.prefix}referral-invitations:ip:`,
      INVITATIONS_PER_IP,
      clock,
    );
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  list(userId: string): Promise<ReferralInvitationView[]> {
    return this.invitations.listOf(userId).then((rows) => rows.map(toInvitationView));
  }

  /**
   * Records (or renews) the invitation, then mails it. A repeat within a day of the last mail is
   * 409; so is one to an address that already signed up with the caller's code.
   */
  async send(
    userId: string,
    ip: string,
    input: { email: string; message?: string },
    now = this.clock.now(),
  ): Promise<SentInvitation> {
    const referrer = await this.users.findById(userId);
    if (!referrer) throw DomainError.unauthorized('the account no longer exists');
    if (referrer.email === input.email) {
      throw DomainError.keyed('invalidFields', 'email: you cannot invite yourself');
    }
    const code = await this.codes.codeOf(userId);
    const message = input.message || null;
    const sent = await this.uow
      .run(async (tx) => {
        const existing = await this.invitations.lockFor(userId, input.email, tx);
        if (existing) {
          if (existing.state !== 'sent') {
            throw DomainError.conflict('this address has already signed up with your code');
          }
          if (now.getTime() - existing.lastSentAt.getTime() < RESEND_AFTER_MS) {
            throw DomainError.conflict('this address was invited less than 24 hours ago');
          }
        }
        await this.limitAddress(input.email, now, tx);
        await this.limit(userId, ip);
        await this.mails.add(input.email, now, tx);
        if (existing) {
          existing.lastSentAt = now;
          existing.sendCount += 1;
          existing.message = message;
          return { invitation: await this.invitations.save(existing, tx), created: false };
        }
        const invitation = await this.invitations.add(
          { referrerUserId: userId, email: input.email, message, state: 'sent', lastSentAt: now },
          tx,
        );
        return { invitation, created: true };
      })
      .catch((err: unknown) => {
        // Two first invitations of one address at the same instant: the unique index decides.
        if (err instanceof QueryFailedError && (err as { code?: string }).code === '23505') {
          throw DomainError.conflict('this address was invited less than 24 hours ago');
        }
        throw err;
      });
    const from = referrer.name ?? referrer.email;
    // The invitation stands even when the mail fails: the referrer may send it again tomorrow.
    await this.mail
      .send({
        to: input.email,
        subject: `${from} invites you to Ledgerline`,
        text:
          `${message ? `${message}\n\n` : ''}${from} invites you to keep your company's cap ` +
          `table on Ledgerline.\nSign up: ${this.env.FRONTEND_URL}/register?referralCode=${code}\n` +
          `Referral code: ${code}`,
      })
      .catch((err: Error) =>
        this.logger.error(`referral invitation mail to ${input.email} failed: ${err.message}`),
      );
    return { invitation: toInvitationView(sent.invitation), created: sent.created };
  }

  /**
   * 429 when the address had INVITATIONS_PER_ADDRESS mails in the period, whoever sent them, until
   * the oldest of them leaves it. Holds the address's lock until the mail is recorded. Whether
   * the address has an account plays no part (the answer reveals nothing about it).
   */
  private async limitAddress(email: string, now: Date, tx: InTransaction): Promise<void> {
    const { limit, windowMs } = INVITATIONS_PER_ADDRESS;
    const sent = await this.mails.lockAndList(email, new Date(now.getTime() - windowMs), tx);
    if (sent.length < limit) return;
    const freedAt = sent[sent.length - limit].getTime() + windowMs;
    throw DomainError.tooManyRequests(
      now.getTime(),
      (freedAt - now.getTime()) / 1000,
      `this address has had ${limit} referral invitations in 30 days: it can be invited again later`,
      limit,
    );
  }

  /** Counts a mail against both limits (429 past either); only mails that will be sent count. */
  private async limit(userId: string, ip: string): Promise<void> {
    await this.perAccount.consume(userId);
    await this.perIp.consume(ip);
  }
}
