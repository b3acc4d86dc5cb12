import { createHash } from 'node:crypto';
import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import Decimal from 'decimal.js';
import { BillingCredits } from '../../billing';
import { Env } from '../../config';
import { CREDIT_REDEMPTION, QueueName, UnitOfWork } from '../../events';
import { CreditLedgerRepository } from '../store/credit-ledger.repository';

export type RedemptionOutcome = 'redeemed' | 'nothing-to-redeem' | 'no-subscription';

/**
 * The id of an entity's next redemption, derived from how many movements out it has had: a
 * redemption whose provider call succeeded but whose transaction did not commit is retried with
 * the same id, which the provider recognises (its uniqueness token) instead of crediting twice.
 */
export function redemptionId(entityId: string, movements: number): string {
  const hex = createHash('sha256').update(`redemption:${entityId}:${movements}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Applies an organization entity's credit to its invoices: the whole balance goes to the billing
 * provider as a negative adjustment on the live subscription, and is recorded as a redemption.
 */
@Injectable()
export class CreditRedemptions {
  private readonly logger = new Logger('CreditRedemptions');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly ledger: CreditLedgerRepository,
    private readonly credits: BillingCredits,
    private readonly env: Env,
    @InjectQueue(QueueName.CreditRedemption) private readonly queue: Queue,
  ) {}

  /**
   * Under the entity's account lock (no transfer out meanwhile), so the balance sent is the one
   * recorded. The provider call runs inside the transaction: a failure leaves nothing recorded.
   */
  async redeem(entityId: string): Promise<RedemptionOutcome> {
    await this.ledger.ensureAccount(entityId);
    return this.uow.run(async (tx) => {
      const movements = await this.ledger.lockAccount(entityId, tx);
      const balance = new Decimal(await this.ledger.balance(entityId, tx));
      if (balance.lte(0)) return 'nothing-to-redeem';
      const id = redemptionId(entityId, movements);
      const amount = balance.toFixed(2);
      const outcome = await this.credits.credit(entityId, amount, 'Referral credit', id);
      if (outcome === 'no-subscription') return 'no-subscription';
      await this.ledger.append(
        [
          {
            id,
            entityId,
            kind: 'redemption',
            amount: balance.neg().toFixed(2),
            currency: this.env.BILLING_CURRENCY,
            movementId: id,
            counterpartyEntityId: null,
            actorUserId: null,
          },
        ],
        tx,
      );
      await this.ledger.countMovement(entityId, tx);
      return 'redeemed';
    });
  }

  /** Redeems now; when the provider cannot be reached, the queue retries later. */
  async redeemSoon(entityId: string): Promise<void> {
    try {
      await this.redeem(entityId);
    } catch (err) {
      this.logger.warn(
        `credit of entity ${entityId} not yet applied (${(err as Error).message}); retrying later`,
      );
      await this.queue
        .add(
          CREDIT_REDEMPTION.name,
          { entityId },
          {
            ...CREDIT_REDEMPTION.options,
            jobId: CREDIT_REDEMPTION.jobId(entityId),
          },
        )
        .catch((queueErr: Error) =>
          this.logger.error(`credit redemption of ${entityId} not queued: ${queueErr.message}`),
        );
    }
  }
}
