import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import { DomainError } from '../../common';
import { DomainEvent, Tx, UnitOfWork } from '../../events';
import { OrganizationsDirectory } from '../../organizations';
import { EquityTransaction } from './equity-transaction.entity';
import { LedgerRuleError, LedgerState } from './ledger-state';
import { LedgerScope, LedgerStore } from './ledger-store';
import type { LedgerTransaction, TransactionPayloads, TransactionType } from './transaction-types';

/** What a change of the cap table works with inside its transaction. */
export interface LedgerChange {
  readonly tx: Tx;
  /** The locked records of the scope, as the reducer sees them. */
  readonly state: LedgerState;
  /** Runs one transaction through the reducer, persists it and appends it to the log. */
  apply<T extends TransactionType>(
    type: T,
    effectiveDate: string,
    payload: TransactionPayloads[T],
  ): Promise<string>;
  record(...events: DomainEvent[]): Promise<void>;
  /**
   * A record as this change last wrote it, as its entity (created and updated times included:
   * what the change answers, without reading it back), else as its table holds it.
   */
  current<E extends ObjectLiteral>(entity: EntityTarget<E>, id: string): Promise<E>;
}

/**
 * Every write to the cap table goes through here: one database transaction that locks the records
 * the change reads to decide, applies it with the reducer that replays the log (so invariants are
 * checked once, in one place, under the locks), appends it to the log and records its domain
 * events. A broken invariant becomes the spec's error: `insufficientShares` (400), a state
 * conflict (409), a missing record (404) or invalid input (400).
 */
@Injectable()
export class LedgerWriter {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: LedgerStore,
    private readonly organizations: OrganizationsDirectory,
  ) {}

  async change<T>(
    organizationId: string,
    actorUserId: string,
    scope: LedgerScope,
    work: (change: LedgerChange) => Promise<T>,
  ): Promise<T> {
    return this.uow.run((tx) => this.changeIn(tx, organizationId, actorUserId, scope, work));
  }

  /**
   * The same change inside a transaction the caller holds (one that also writes outside the cap
   * table, such as the one creating the organization).
   */
  async changeIn<T>(
    tx: Tx,
    organizationId: string,
    actorUserId: string,
    scope: LedgerScope,
    work: (change: LedgerChange) => Promise<T>,
  ): Promise<T> {
    const written = new Map<string, ObjectLiteral>();
    try {
      const state = await this.store.load(tx, organizationId, scope);
      return await work({
        tx,
        state,
        record: (...events) => tx.record(...events),
        current: async <E extends ObjectLiteral>(entity: EntityTarget<E>, id: string) =>
          (written.get(id) as E | undefined) ??
          tx.manager
            .getRepository(entity)
            .findOneByOrFail({ id } as unknown as FindOptionsWhere<E>),
        apply: async (type, effectiveDate, payload) => {
          const id = randomUUID();
          const transaction = { id, type, effectiveDate, payload } as LedgerTransaction;
          const rows = await this.store.apply(tx, organizationId, actorUserId, state, transaction);
          for (const [key, row] of rows) written.set(key, row);
          return id;
        },
      });
    } catch (err) {
      throw err instanceof LedgerRuleError ? toDomainError(err) : err;
    }
  }

  /**
   * For a change that writes a whole cap table (an import): locks the organization's row, so
   * every other write to its cap table (each inserts rows referring to it) waits until `tx` ends,
   * and this one sees every write committed before; and tells whether the cap table is empty.
   * It is when its log is: no transaction at all, hence no class, legend, shareholding, plan,
   * pool, vesting schedule, valuation, capital change, grant, warrant or convertible (every one
   * of them is made by a logged transaction). Members do not count.
   */
  async lockForImport(tx: Tx, organizationId: string): Promise<{ empty: boolean }> {
    if (!(await this.organizations.lock(tx, organizationId))) {
      throw DomainError.notFound('no such organization');
    }
    const used = await tx.manager.getRepository(EquityTransaction).existsBy({ organizationId });
    return { empty: !used };
  }
}

function toDomainError(err: LedgerRuleError): DomainError {
  switch (err.rule) {
    case 'insufficientShares':
      return DomainError.keyed('insufficientShares', err.message);
    case 'conflict':
      return DomainError.conflict(err.message);
    case 'notFound':
      return DomainError.notFound(err.message);
    case 'invalid':
      return DomainError.badRequest(err.message, err.field ? { body: { field: err.field } } : {});
  }
}
