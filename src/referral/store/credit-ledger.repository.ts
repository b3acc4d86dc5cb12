import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { InTransaction } from '../../database';
import { CreditEntry, CreditEntryKind } from './credit-entry.entity';
import { CreditRedemption } from './credit-redemption.entity';

export type NewCreditEntry = Omit<CreditEntry, 'sequence' | 'created'>;

/** Sums of an entity's entries: its balance and what came in and went out, by kind. */
export interface CreditTotals {
  balance: string;
  granted: string;
  received: string;
  sent: string;
  redeemed: string;
  expired: string;
  entries: number;
}

/**
 * The credit ledger: entries are only ever inserted (the table's trigger refuses the rest), and a
 * movement out of an entity first locks the entity's account row.
 */
@Injectable()
export class CreditLedgerRepository {
  constructor(@InjectRepository(CreditEntry) private readonly entries: Repository<CreditEntry>) {}

  private manager(tx?: InTransaction) {
    return tx?.manager ?? this.entries.manager;
  }

  /**
   * Locks the entity's account (made when missing) until the transaction ends and answers how
   * many movements out it has had.
   */
  async lockAccount(entityId: string, tx: InTransaction): Promise<number> {
    const [row] = (await tx.manager.query(
      'SELECT movements FROM credit_account WHERE entity_id = $1 FOR UPDATE',
      [entityId],
    )) as { movements: number }[];
    return row.movements;
  }

  /**
   * Makes the entity's account when missing. Outside the movement's transaction (its own
   * statement): two first movements between the same two entities in opposite directions would
   * otherwise wait for each other's uncommitted account.
   */
  async ensureAccount(entityId: string, tx?: InTransaction): Promise<void> {
    await this.manager(tx).query(
      'INSERT INTO credit_account (entity_id) VALUES ($1) ON CONFLICT (entity_id) DO NOTHING',
      [entityId],
    );
  }

  async countMovement(entityId: string, tx: InTransaction): Promise<void> {
    await tx.manager.query(
      'UPDATE credit_account SET movements = movements + 1 WHERE entity_id = $1',
      [entityId],
    );
  }

  /** The entity's balance, the sum of its entries, as a two-decimal string. */
  async balance(entityId: string, tx?: InTransaction): Promise<string> {
    const [row] = (await this.manager(tx).query(
      'SELECT COALESCE(sum(amount), 0)::numeric(20,2)::text AS balance FROM credit_entry WHERE entity_id = $1',
      [entityId],
    )) as { balance: string }[];
    return row.balance;
  }

  async totals(entityId: string): Promise<CreditTotals> {
    const sumOf = (kinds: CreditEntryKind[], sign = '') =>
      `COALESCE(${sign}sum(amount) FILTER (WHERE kind IN (${kinds.map((k) => `'${k}'`).join(', ')})), 0)::numeric(20,2)::text`;
    const [row] = (await this.entries.manager.query(
      `SELECT COALESCE(sum(amount), 0)::numeric(20,2)::text AS balance,
              ${sumOf(['grant'])} AS granted, ${sumOf(['transfer_in'])} AS received,
              ${sumOf(['transfer_out'], '-')} AS sent,
              ${sumOf(['redemption', 'redemption_reversal'], '-')} AS redeemed,
              ${sumOf(['expiry'], '-')} AS expired, count(*)::int AS entries
         FROM credit_entry WHERE entity_id = $1`,
      [entityId],
    )) as CreditTotals[];
    return row;
  }

  async append(entries: NewCreditEntry[], tx: InTransaction): Promise<CreditEntry[]> {
    const repo = tx.manager.getRepository(CreditEntry);
    return repo.save(entries.map((e) => repo.create(e)));
  }

  /** Records a redemption reserved (with its entry, in the reservation's transaction). */
  async addRedemption(
    redemption: Pick<
      CreditRedemption,
      'id' | 'entityId' | 'subscriptionId' | 'amount' | 'currency'
    >,
    tx: InTransaction,
  ): Promise<void> {
    await tx.manager.insert(CreditRedemption, { ...redemption, state: 'pending' });
  }

  /** The entity's redemptions the provider may not have yet, oldest first. */
  pendingRedemptions(entityId: string): Promise<CreditRedemption[]> {
    return this.entries.manager.find(CreditRedemption, {
      where: { entityId, state: 'pending' },
      order: { created: 'ASC' },
    });
  }

  /** Entities with a redemption pending since before `before` (the sweep re-queues them). */
  async withPendingRedemptions(before: Date, limit: number): Promise<string[]> {
    const rows = (await this.entries.manager.query(
      `SELECT DISTINCT entity_id FROM credit_redemption
        WHERE state = 'pending' AND created < $1 LIMIT $2`,
      [before, limit],
    )) as { entity_id: string }[];
    return rows.map((r) => r.entity_id);
  }

  /**
   * Settles a pending redemption (one statement; or in `tx`): false when it was settled already
   * (by a concurrent attempt), so that its reversal is written once.
   */
  async settleRedemption(
    id: string,
    state: 'applied' | 'reversed',
    tx?: InTransaction,
  ): Promise<boolean> {
    const [, affected] = (await this.manager(tx).query(
      `UPDATE credit_redemption SET state = $2, settled_at = now() WHERE id = $1 AND state = 'pending'`,
      [id, state],
    )) as [unknown, number];
    return affected > 0;
  }

  /** The entity's entries, newest first. */
  history(entityId: string, limit: number, offset: number): Promise<CreditEntry[]> {
    return this.entries.find({
      where: { entityId },
      order: { sequence: 'DESC' },
      take: limit,
      skip: offset,
    });
  }

  /** Entities with a positive balance, in id order after `after`: the expiry's batches. */
  async withCredit(after: string | null, limit: number): Promise<string[]> {
    const rows = (await this.entries.manager.query(
      `SELECT entity_id FROM credit_entry
        WHERE ($1::uuid IS NULL OR entity_id > $1::uuid)
        GROUP BY entity_id HAVING sum(amount) > 0
        ORDER BY entity_id LIMIT $2`,
      [after, limit],
    )) as { entity_id: string }[];
    return rows.map((r) => r.entity_id);
  }

  /** What arrived (grants and transfers in) since `since`: the part of a balance still fresh. */
  async arrivedSince(entityId: string, since: Date, tx: InTransaction): Promise<string> {
    const [row] = (await tx.manager.query(
      `SELECT COALESCE(sum(amount), 0)::numeric(20,2)::text AS fresh FROM credit_entry
        WHERE entity_id = $1 AND kind IN ('grant', 'transfer_in') AND created > $2`,
      [entityId, since],
    )) as { fresh: string }[];
    return row.fresh;
  }
}
