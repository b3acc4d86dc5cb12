import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import { AccessContext, Clock, DomainError } from '../../common';
import { DomainEvent, Tx, UnitOfWork } from '../../events';
import { allowLongStatements } from '../../database';
import { OrganizationsDirectory } from '../../organizations';
import { StakeholderCounts } from '../billing-counts';
import { EquityTransaction } from './equity-transaction.entity';
import { LedgerRuleError, LedgerState, RecordKind } from './ledger-state';
import { LedgerScope, LedgerStore } from './ledger-store';
import { RECORD_VIEWS } from './record-views';
import { scopeCovers } from './scope-cover';
import type { LedgerTransaction, TransactionPayloads, TransactionType } from './transaction-types';
import { definitionOf } from './transactions';
import type { AppliedStep, CommandRun, LedgerCommand } from './command';
import { commandOf, outcomeOf } from './definition-command';
import type { CommandContext, CommandOutcome, ViewKind } from './transactions/definition';

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
    private readonly counts: StakeholderCounts,
    private readonly clock: Clock,
  ) {}

  /**
   * Transactions holding the whole cap table (an import's organization lock, or an organization
   * made in them): every record they name was made by them or is locked with the organization.
   */
  private readonly wholeCapTable = new WeakSet<Tx>();

  /**
   * Runs one command of the ledger as one unit: locks the records of its `scope(input)`, makes its
   * transactions with `prepare` from them, validates and applies each (the reducer, as a replay
   * would), appends them to the log, and records the command's event (and, when holdings
   * changed, the counts billing charges by) in the same transaction. `respond` makes the caller's
   * answer from what the command wrote; the event is given it (an event's object is what the
   * record's route answers).
   */
  async run<I>(
    command: LedgerCommand<I>,
    input: I,
    access: Pick<AccessContext, 'organizationId' | 'organization' | 'userId'>,
    respond?: (run: CommandRun) => Promise<object>,
  ): Promise<{ run: CommandRun; answer?: object }> {
    const organization = access.organization!;
    const context: CommandContext = {
      organization: {
        id: organization.id,
        type: organization.type,
        currency: organization.currency,
      },
      actorUserId: access.userId,
      today: this.clock.today(),
    };
    return this.change(organization.id, access.userId, command.scope(input), async (c) => {
      // What it reads besides the locked records, under their locks (a conversion's cap table).
      const ready = command.load
        ? await command.load(input, { tx: c.tx, state: c.state, context })
        : input;
      const steps = command.prepare(c.state, ready, context);
      const before = new Map<string, object>();
      for (const { kind, id } of steps.length
        ? (command.event?.before?.(ready, steps) ?? [])
        : []) {
        before.set(`${kind}:${id}`, await this.view(c, kind, id));
      }
      const applied: AppliedStep[] = [];
      for (const step of steps) {
        applied.push({ ...step, id: await c.apply(step.type, step.effectiveDate, step.payload) });
      }
      const run: CommandRun = {
        state: c.state,
        context,
        steps: applied,
        tx: c.tx,
        view: (kind, id) => this.view(c, kind, id),
        before: (kind, id) => before.get(`${kind}:${id}`),
        current: (entity, id) => c.current(entity, id),
      };
      const answer = respond ? await respond(run) : undefined;
      if (command.event && applied.length) {
        const described = await command.event.describe(run, ready, answer);
        await c.record({
          type: command.event.type,
          organizationId: organization.id,
          actorUserId: access.userId,
          ...described,
        });
      }
      return { run, answer };
    });
  }

  /** Runs the command of one transaction type (its definition's `command`); see `run`. */
  async execute<T extends TransactionType>(
    type: T,
    input: unknown,
    access: Pick<AccessContext, 'organizationId' | 'organization' | 'userId'>,
    respond?: (outcome: CommandOutcome<T>) => Promise<object>,
  ): Promise<{ outcome: CommandOutcome<T>; answer?: object }> {
    const { run, answer } = await this.run(
      commandOf(type),
      input,
      access,
      respond && ((r) => respond(outcomeOf<T>(r))),
    );
    return { outcome: outcomeOf<T>(run), answer };
  }

  private async view(c: LedgerChange, kind: ViewKind, id: string): Promise<object> {
    const { entity, view } = RECORD_VIEWS[kind];
    return view((await c.current(entity, id)) as never, c.tx, this.clock.today());
  }

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
    options: { wholeCapTable?: boolean } = {},
  ): Promise<T> {
    if (options.wholeCapTable) this.wholeCapTable.add(tx);
    const written = new Map<string, ObjectLiteral>();
    const touched = new Set<RecordKind>();
    try {
      const state = await this.store.load(tx, organizationId, scope);
      const result = await work({
        tx,
        state,
        record: (...events) => tx.record(...events),
        current: async <E extends ObjectLiteral>(entity: EntityTarget<E>, id: string) =>
          (written.get(id) as E | undefined) ??
          tx.manager
            .getRepository(entity)
            .findOneByOrFail({ id } as unknown as FindOptionsWhere<E>),
        apply: async (type, effectiveDate, payload) => {
          // Until every write is a command, the scope a caller loaded must cover the one its
          // definition states (see scopeCovers: what it can check).
          const needed = definitionOf(type).scope(payload);
          if (!this.wholeCapTable.has(tx) && !scopeCovers(scope, needed)) {
            throw new Error(
              `${type}: the change locked ${JSON.stringify(scope)}, not all of ${JSON.stringify(needed)}`,
            );
          }
          const id = randomUUID();
          const transaction = { id, type, effectiveDate, payload } as LedgerTransaction;
          const rows = await this.store.apply(
            tx,
            organizationId,
            actorUserId,
            state,
            transaction,
            this.clock.now(),
            touched,
          );
          for (const [key, row] of rows) written.set(key, row);
          return id;
        },
      });
      await tx.record(...this.countEvents(organizationId, actorUserId, touched));
      return result;
    } catch (err) {
      throw err instanceof LedgerRuleError ? toDomainError(err) : err;
    }
  }

  /**
   * The counts billing charges by may have changed when a change wrote holdings: one event of
   * each kind, derived from what was written (no change has to remember to record them; a push of
   * unchanged counts sends nothing).
   */
  private countEvents(
    organizationId: string,
    actorUserId: string,
    touched: Set<RecordKind>,
  ): DomainEvent[] {
    const access = { organizationId, userId: actorUserId };
    // Members with equity: active shares or grants (a plan's deletion pushes them too, spec 6).
    const members = touched.has('holdings') || touched.has('plans');
    return [
      ...(members ? [this.counts.members(access)] : []),
      ...(touched.has('shareholdings') ? [this.counts.shareholders(access)] : []),
    ];
  }

  /**
   * A change that writes a whole cap table (an import), in a transaction of its own: the
   * organization's row locked first (see `lockForImport`), then `work` with whether the cap
   * table is empty; every transaction it applies is the reducer's, as a command's.
   */
  async importInto<T>(
    organizationId: string,
    actorUserId: string,
    work: (change: LedgerChange, capTable: { empty: boolean }) => Promise<T>,
  ): Promise<T> {
    return this.uow.run(async (tx) => {
      // An import writes a whole cap table: every statement of it, the emptiness check and the
      // lock's wait included, has the long limit.
      await allowLongStatements(tx);
      const capTable = await this.lockForImport(tx, organizationId);
      return this.changeIn(tx, organizationId, actorUserId, {}, (c) => work(c, capTable), {
        wholeCapTable: true,
      });
    });
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
    this.wholeCapTable.add(tx);
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
    case 'invalidFields':
      return DomainError.keyed('invalidFields', err.message);
  }
}
