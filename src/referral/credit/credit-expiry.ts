import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { Clock } from '../../common';
import { Env } from '../../config';
import { UnitOfWork } from '../../events';
import { DAY, Scheduled } from '../../scheduler';
import { CreditLedgerRepository } from '../store/credit-ledger.repository';

/** Entities read per batch of the daily run. */
const BATCH = 500;

/**
 * Credit expires REFERRAL_CREDIT_EXPIRY_DAYS after it arrived, oldest first: what went out of a
 * balance is taken to have used the oldest credit, so the part of a balance older than the
 * period is whatever exceeds what arrived within it. Once a day across instances, each entity
 * with credit gets an `expiry` entry for that part, under its account lock like every movement.
 */
@Injectable()
export class CreditExpiry {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ledger: CreditLedgerRepository,
    private readonly env: Env,
    private readonly clock: Clock,
  ) {}

  /** The day's run (none while REFERRAL_CREDIT_EXPIRY_DAYS is 0); answers as `expireAll`. */
  @Scheduled({ name: 'referral:credit-expiry', every: DAY })
  async daily(): Promise<number> {
    const days = this.env.REFERRAL_CREDIT_EXPIRY_DAYS;
    return days ? this.expireAll(days) : 0;
  }

  /** Expires what is older than `days` everywhere; answers how many entities lost credit. */
  async expireAll(days: number): Promise<number> {
    const cutoff = this.clock.before(days * DAY);
    let expired = 0;
    let after: string | null = null;
    for (;;) {
      const batch = await this.ledger.withCredit(after, BATCH);
      for (const entityId of batch) if (await this.expire(entityId, cutoff)) expired++;
      if (batch.length < BATCH) return expired;
      after = batch[batch.length - 1];
    }
  }

  private async expire(entityId: string, cutoff: Date): Promise<boolean> {
    await this.ledger.ensureAccount(entityId);
    return this.uow.run(async (tx) => {
      await this.ledger.lockAccount(entityId, tx);
      const balance = new Decimal(await this.ledger.balance(entityId, tx));
      const fresh = new Decimal(await this.ledger.arrivedSince(entityId, cutoff, tx));
      const stale = balance.minus(fresh);
      if (stale.lte(0)) return false;
      await this.ledger.append(
        [
          {
            id: randomUUID(),
            entityId,
            kind: 'expiry',
            amount: stale.neg().toFixed(2),
            currency: this.env.BILLING_CURRENCY,
            movementId: randomUUID(),
            counterpartyEntityId: null,
            actorUserId: null,
          },
        ],
        tx,
      );
      await this.ledger.countMovement(entityId, tx);
      return true;
    });
  }
}
