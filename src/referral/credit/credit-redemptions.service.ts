import { createHash, randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import Decimal from 'decimal.js';
import { BillingCredits, BillingNotFoundError, BillingProviderError } from '../../billing';
import { Clock } from '../../common';
import { Env } from '../../config';
import { CREDIT_REDEMPTION, QueueName, UnitOfWork } from '../../events';
import { HOUR, Scheduled } from '../../scheduler';
import { CreditLedgerRepository } from '../store/credit-ledger.repository';
import type { CreditRedemption } from '../store/credit-redemption.entity';

export type RedemptionOutcome = 'redeemed' | 'refused' | 'nothing-to-redeem' | 'no-subscription';

/** What a reservation made, and what sending it again needs. */
type Reserved = Pick<
  CreditRedemption,
  'id' | 'entityId' | 'subscriptionId' | 'amount' | 'currency'
>;

const MEMO = 'Referral credit';
/** A redemption pending this long is taken to have lost its retry job: the sweep re-queues it. */
const PENDING_SWEEP_AFTER_MS = 10 * 60_000;
const SWEEP_BATCH = 500;

/**
 * The id of an entity's next redemption, derived from how many movements out it has had (each
 * reservation counts one, so each has its own). Stored with the reservation before the provider
 * is called: every attempt to send it carries this id as the uniqueness token, so the provider
 * credits it once however often it is sent.
 */
export function redemptionId(entityId: string, movements: number): string {
  const hex = createHash('sha256').update(`redemption:${entityId}:${movements}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Applies an organization entity's credit to its invoices: the whole balance goes to the billing
 * provider as a negative adjustment on the live subscription, and is recorded as a redemption.
 * No transaction is open during the provider's call: the amount is reserved first (a
 * `redemption` entry and its `credit_redemption` row, in a short transaction under the account's
 * lock, so no transfer can spend it meanwhile), then sent with the redemption's id as the
 * uniqueness token. The provider taking it applies it; refusing it reverses it (a
 * `redemption_reversal` entry gives the amount back); no answer leaves it pending, for the
 * credit-redemption queue to send again with the same id (the provider credits it once).
 */
@Injectable()
export class CreditRedemptions {
  private readonly logger = new Logger('CreditRedemptions');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly ledger: CreditLedgerRepository,
    private readonly credits: BillingCredits,
    private readonly env: Env,
    private readonly clock: Clock,
    @InjectQueue(QueueName.CreditRedemption) private readonly queue: Queue,
  ) {}

  /**
   * Sends the entity's pending redemptions again, then redeems its balance. Throws while the
   * provider cannot be reached (what is reserved stays pending).
   */
  async redeem(entityId: string): Promise<RedemptionOutcome> {
    for (const pending of await this.ledger.pendingRedemptions(entityId)) {
      await this.send(pending);
    }
    const subscriptionId = await this.credits.target(entityId);
    if (!subscriptionId) return 'no-subscription';
    const reserved = await this.reserve(entityId, subscriptionId);
    if (!reserved) return 'nothing-to-redeem';
    return (await this.send(reserved)) === 'applied' ? 'redeemed' : 'refused';
  }

  /** Redeems now; when the provider cannot be reached, the queue retries later. */
  async redeemSoon(entityId: string): Promise<void> {
    try {
      await this.redeem(entityId);
    } catch (err) {
      this.logger.warn(
        `credit of entity ${entityId} not yet applied (${(err as Error).message}); retrying later`,
      );
      await this.retryLater(entityId);
    }
  }

  /** Each hour, one instance re-queues the entities whose redemptions wait without a job. */
  @Scheduled({ name: 'referral:redemption-sweep', every: HOUR })
  async sweep(): Promise<void> {
    const before = this.clock.before(PENDING_SWEEP_AFTER_MS);
    for (const entityId of await this.ledger.withPendingRedemptions(before, SWEEP_BATCH)) {
      await this.retryLater(entityId);
    }
  }

  /**
   * Takes the whole balance out for the invoices, in a short transaction under the account's
   * lock; null when there is nothing to take.
   */
  private async reserve(entityId: string, subscriptionId: string): Promise<Reserved | null> {
    await this.ledger.ensureAccount(entityId);
    return this.uow.run(async (tx) => {
      const movements = await this.ledger.lockAccount(entityId, tx);
      const balance = new Decimal(await this.ledger.balance(entityId, tx));
      if (balance.lte(0)) return null;
      const reserved: Reserved = {
        id: redemptionId(entityId, movements),
        entityId,
        subscriptionId,
        amount: balance.toFixed(2),
        currency: this.env.BILLING_CURRENCY,
      };
      await this.ledger.append(
        [
          {
            id: reserved.id,
            entityId,
            kind: 'redemption',
            amount: balance.neg().toFixed(2),
            currency: reserved.currency,
            movementId: reserved.id,
            counterpartyEntityId: null,
            actorUserId: null,
          },
        ],
        tx,
      );
      await this.ledger.addRedemption(reserved, tx);
      await this.ledger.countMovement(entityId, tx);
      return reserved;
    });
  }

  /**
   * Sends a reserved redemption to the provider, outside any transaction, and settles it by the
   * answer. Throws (leaving it pending) when the answer says nothing of what the provider did.
   */
  private async send(redemption: Reserved): Promise<'applied' | 'reversed'> {
    try {
      await this.credits.credit(redemption.subscriptionId, redemption.amount, MEMO, redemption.id);
    } catch (err) {
      if (!(err instanceof BillingProviderError || err instanceof BillingNotFoundError)) throw err;
      this.logger.warn(
        `redemption ${redemption.id} of entity ${redemption.entityId} refused by the provider ` +
          `(${err.message}): its credit is given back`,
      );
      await this.reverse(redemption);
      return 'reversed';
    }
    await this.ledger.settleRedemption(redemption.id, 'applied');
    return 'applied';
  }

  /** Gives a refused redemption's amount back, once (a concurrent attempt may settle it first). */
  private async reverse(redemption: Reserved): Promise<void> {
    await this.uow.run(async (tx) => {
      if (!(await this.ledger.settleRedemption(redemption.id, 'reversed', tx))) return;
      await this.ledger.append(
        [
          {
            id: randomUUID(),
            entityId: redemption.entityId,
            kind: 'redemption_reversal',
            amount: new Decimal(redemption.amount).toFixed(2),
            currency: redemption.currency,
            movementId: redemption.id,
            counterpartyEntityId: null,
            actorUserId: null,
          },
        ],
        tx,
      );
    });
  }

  /** Queued for the first backoff's delay: the client's own retries have just failed. */
  private async retryLater(entityId: string): Promise<void> {
    await this.queue
      .add(
        CREDIT_REDEMPTION.name,
        { entityId },
        {
          ...CREDIT_REDEMPTION.options,
          delay: CREDIT_REDEMPTION.options.backoff.delay,
          jobId: CREDIT_REDEMPTION.jobId(entityId),
        },
      )
      .catch((queueErr: Error) =>
        this.logger.error(`credit redemption of ${entityId} not queued: ${queueErr.message}`),
      );
  }
}
