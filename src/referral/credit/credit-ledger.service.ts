import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DomainError } from '../../common';
import { Env } from '../../config';
import { Tx, UnitOfWork } from '../../events';
import { LegalRecordsService } from '../../profiles';
import { CreditLedgerRepository, CreditTotals } from '../store/credit-ledger.repository';
import { CreditEntryView, CreditTransferView, toCreditEntryView } from './credit.view';
import { CreditRedemptions } from './credit-redemptions.service';

/** At most this many history entries a page. */
const DEFAULT_PAGE = 100;

/**
 * Credit balances and their movements. Every movement out of an entity is one transaction that
 * first locks the entity's account row, then reads its balance: concurrent movements out of one
 * entity run one after the other, so none can overdraw, and each movement's entries sum to zero
 * (a transfer) or come from a card revealed once (a grant).
 */
@Injectable()
export class CreditLedger {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ledger: CreditLedgerRepository,
    private readonly records: LegalRecordsService,
    private readonly redemptions: CreditRedemptions,
    private readonly env: Env,
  ) {}

  /**
   * Moves `amount` from one entity to another (the guard decided the caller controls the
   * source). Credit arriving at an organization's entity is applied to its invoices at once.
   */
  async transfer(
    actorUserId: string,
    input: { fromEntity: string; toEntity: string; amount: string },
  ): Promise<CreditTransferView> {
    const { fromEntity, toEntity } = input;
    if (fromEntity === toEntity) {
      throw DomainError.keyed('invalidFields', 'toEntity must differ from fromEntity');
    }
    const target = await this.records.entityOwner(toEntity);
    // An entity nobody answers for (a member recorded without an account) could never use it.
    if (!target || (!target.ownerUserId && !target.organizationId)) {
      throw DomainError.notFound('toEntity: no such user or organization entity');
    }
    const amount = new Decimal(input.amount);
    const currency = this.env.BILLING_CURRENCY;
    await this.ledger.ensureAccount(fromEntity);
    await this.ledger.ensureAccount(toEntity);
    const view = await this.uow.run(async (tx) => {
      await this.ledger.lockAccount(fromEntity, tx);
      const balance = new Decimal(await this.ledger.balance(fromEntity, tx));
      if (amount.gt(balance)) {
        throw DomainError.keyed('insufficientCredit');
      }
      const id = randomUUID();
      const moved = amount.toFixed(2);
      const side = { currency, movementId: id, actorUserId };
      const [out] = await this.ledger.append(
        [
          {
            ...side,
            id: randomUUID(),
            entityId: fromEntity,
            kind: 'transfer_out',
            amount: amount.neg().toFixed(2),
            counterpartyEntityId: toEntity,
          },
          {
            ...side,
            id: randomUUID(),
            entityId: toEntity,
            kind: 'transfer_in',
            amount: moved,
            counterpartyEntityId: fromEntity,
          },
        ],
        tx,
      );
      await this.ledger.countMovement(fromEntity, tx);
      return {
        id,
        fromEntity,
        toEntity,
        amount: moved,
        currency,
        created: out.created.toISOString(),
      };
    });
    if (target.organizationId) await this.redemptions.redeemSoon(toEntity);
    return view;
  }

  /** Credits a revealed reward card's value to the entity, in the reveal's transaction. */
  async grant(
    tx: Tx,
    grant: { entityId: string; amount: string; cardId: string; actorUserId: string },
  ): Promise<void> {
    await this.ledger.append(
      [
        {
          id: randomUUID(),
          entityId: grant.entityId,
          kind: 'grant',
          amount: grant.amount,
          currency: this.env.BILLING_CURRENCY,
          movementId: grant.cardId,
          counterpartyEntityId: null,
          actorUserId: grant.actorUserId,
        },
      ],
      tx,
    );
  }

  balance(entityId: string): Promise<string> {
    return this.ledger.balance(entityId);
  }

  totals(entityId: string): Promise<CreditTotals> {
    return this.ledger.totals(entityId);
  }

  async history(
    entityId: string,
    page: { limit?: number; offset?: number },
  ): Promise<CreditEntryView[]> {
    const entries = await this.ledger.history(
      entityId,
      page.limit ?? DEFAULT_PAGE,
      page.offset ?? 0,
    );
    return entries.map(toCreditEntryView);
  }
}
