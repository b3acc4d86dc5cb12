import type { EntityTarget, ObjectLiteral } from 'typeorm';
import type { InTransaction } from '../../database';
import type { LedgerState } from './ledger-state';
import type { LedgerScope } from './ledger-scope';
import type { TransactionPayloads, TransactionType } from './transaction-types';
import type {
  CommandContext,
  CommandLoad,
  CommandRoute,
  DescribedEvent,
  TransactionEvent,
  ViewKind,
} from './transactions/definition';

/** One transaction a command writes. */
export type Step = {
  [K in TransactionType]: { type: K; effectiveDate: string; payload: TransactionPayloads[K] };
}[TransactionType];

/** A step as it was applied: with its log id. */
export type AppliedStep = Step & { id: string };

/** What a command's answer and event are read from, once its steps applied. */
export interface CommandRun {
  /** The records as the steps left them. */
  readonly state: LedgerState;
  readonly context: CommandContext;
  /** The transactions written, in order (none when the command changed nothing). */
  readonly steps: readonly AppliedStep[];
  /** The transaction's own transaction (the route's transaction id). */
  readonly tx: InTransaction;
  /** A record as the API shows it now. */
  view(kind: ViewKind, id: string): Promise<object>;
  /** A record as the API showed it before the command (those `event.before` named). */
  before(kind: ViewKind, id: string): object | undefined;
  /** A row as the command last wrote it, else as its table holds it. */
  current<E extends ObjectLiteral>(entity: EntityTarget<E>, id: string): Promise<E>;
}

/**
 * A command of the ledger that may write several transactions (a class's new name and its
 * authorized shares, a plan and its pools): what to lock, the steps from the locked records, one
 * event for the whole, and its route. A command of one transaction is its definition's
 * (`TransactionDefinition.command`); a command of several lives beside them in `commands/`.
 */
export interface LedgerCommand<I> {
  /** Names it in errors and in the generated route's operation id. */
  readonly name: string;
  scope(input: I): LedgerScope;
  /** The input completed with what it reads under the locks besides the records (see `CommandLoad`). */
  load?(input: I, reads: CommandLoad): Promise<I>;
  /** The transactions, in order, from the input and the locked records; none: nothing changes. */
  prepare(state: LedgerState, input: I, context: CommandContext): Step[];
  readonly event?: CommandEvent<I>;
  readonly http?: CommandRoute<I, CommandRun>;
}

/** The event of a command: once, when it wrote anything. */
export interface CommandEvent<I> {
  readonly type: TransactionEvent<TransactionType>['type'];
  readonly public: boolean;
  readonly audience: TransactionEvent<TransactionType>['audience'];
  readonly object?: TransactionEvent<TransactionType>['object'];
  /** The records whose views before the command `describe` compares (its steps prepared). */
  before?(input: I, steps: readonly Step[]): { kind: ViewKind; id: string }[];
  describe(run: CommandRun, input: I, answer: object | undefined): Promise<DescribedEvent>;
}
