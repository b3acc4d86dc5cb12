import type { Type } from '@nestjs/common';
import type { TSchema } from '@sinclair/typebox';
import type { PermissionTarget } from '../../../common';
import type { InTransaction } from '../../../database';
import type { EventType } from '../../../events';
import type { PermissionName } from '../../../organizations';
import type { LedgerState, RecordKind, ShareholdingStatus } from '../ledger-state';
import type { LedgerScope } from '../ledger-scope';
import type { TransactionPayloads, TransactionType } from '../transaction-types';
import type { OcfMapping } from './ocf-mapping';

/**
 * Everything the ledger knows of one transaction type, in one place: adding a type is one file
 * (and its route). The registry (`./index.ts`) is typed so that the compiler refuses a type
 * without its definition.
 */
export interface TransactionDefinition<T extends TransactionType> {
  /**
   * Its payload's schema (TypeBox, so JSON Schema), next to the definition: the payload's type
   * (`TransactionPayloads[T]` is its `Static`), the check of every entry a replay reads, and the
   * payload `GET .../transaction` documents for the type.
   */
  readonly payload: PayloadSchema<TransactionPayloads[T]>;
  /**
   * It defines a record (a class, a legend, vesting terms, a plan): the definition holds for all
   * of history whenever it was recorded, so a replay as of a date always applies it.
   */
  readonly definesRecord: boolean;
  /** The records a write of it reads and locks, from its payload. */
  scope(payload: TransactionPayloads[T]): LedgerScope;
  /**
   * The rules it must meet before it applies. The API, the OCF and CSV imports and an in-order
   * replay all check them here, so they accept exactly the same transactions.
   */
  validate(state: LedgerState, payload: TransactionPayloads[T], effectiveDate: string): void;
  /**
   * Applies it to the state, in place, each changed record through `state.put`. `strict` is
   * false only for a lenient replay of history as of a date (no invariants enforced).
   */
  apply(state: LedgerState, payload: TransactionPayloads[T], strict: boolean): void;
  /**
   * Where its payload names what the log's readers look up without replaying (the OCF export):
   * the shareholding it creates, and the members it names, as paths into the payload.
   */
  readonly refers?: {
    createdShareholding?: readonly string[];
    members?: readonly (readonly string[])[];
    /** The shareholding it takes shares from (a transfer's source). */
    source?: readonly string[];
    /** The shareholding or holding whose issuance it corrects. */
    amends?: readonly string[];
  };
  /**
   * What it is in the Open Cap Format: what the export writes of it, and the OCF objects the
   * import reads as it. Without it, the export keeps an entry whole in the manifest's comments.
   */
  readonly ocf?: OcfMapping<T>;
  /** How a shareholding it ends is left (see ShareholdingEndings). */
  readonly endsShareholdingAs?: ShareholdingEnding;
  /** A payload logged by an earlier version brought to today's shape (replays read old logs). */
  upgrade?(payload: TransactionPayloads[T]): TransactionPayloads[T];
  /**
   * How a caller's command becomes this transaction (`LedgerWriter.execute`): what to lock, then
   * the payload from the locked records, by the same math `apply` uses.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly command?: TransactionCommand<T, any>;
  /** The domain event a write of it records, with the audience of the record it names. */
  readonly event?: TransactionEvent<T>;
  /** The route that writes it, registered from the registry (`ledgerRoutes`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly http?: TransactionRoute<T, any>;
}

/** A schema whose values are `P` (a TypeBox schema carries its type as `static`). */
export type PayloadSchema<P> = TSchema & { static: P };

/** How a shareholding ends: its status, and how its certificate says so. */
export interface ShareholdingEnding {
  readonly status: Exclude<ShareholdingStatus, 'active'>;
  /** Stamped across the certificate (`VOID`). */
  readonly certificateMark: string;
  /** Printed on it: what became of its shares. */
  readonly certificateNote: string;
}

/** Who writes, in which organization, on which day. */
export interface CommandContext {
  readonly organization: { readonly id: string; readonly type: string; readonly currency: string };
  readonly actorUserId: string;
  /** The day it is (UTC): the effective date of a change that names none. */
  readonly today: string;
}

/** What a command's `load` reads with: its transaction, the locked records, who and when. */
export interface CommandLoad {
  readonly tx: InTransaction;
  readonly state: LedgerState;
  readonly context: CommandContext;
}

/** A command of the ledger: the caller's input turned into one transaction's payload. */
export interface TransactionCommand<T extends TransactionType, I> {
  /** The records to read and lock before the payload is made, from the input. */
  scope(input: I): LedgerScope;
  /**
   * The input completed with what the payload needs to read besides the locked records, in the
   * command's transaction once they are locked (a conversion: the cap table before its date).
   */
  load?(input: I, reads: CommandLoad): Promise<I>;
  /**
   * The transaction, from the input and the locked records; null when the command changes
   * nothing (no transaction, no event). Its rules are `validate`'s: what prepare cannot make (a
   * record that is not there) it leaves for `validate` to refuse.
   */
  prepare(
    state: LedgerState,
    input: I,
    context: CommandContext,
  ): { effectiveDate: string; payload: TransactionPayloads[T] } | null;
}

/** What a command's answer is read from: the records as it left them. */
export interface CommandReads {
  /** The records as the transaction left them (as they were, when it changed nothing). */
  readonly state: LedgerState;
  readonly context: CommandContext;
  /** A record as the API shows it now (what the transaction wrote). */
  view(kind: ViewKind, id: string): Promise<object>;
  /** A record as the API showed it before the transaction (those `event.before` named). */
  before(kind: ViewKind, id: string): object | undefined;
}

/** What a transaction's event and answer are made from, once it applied. */
export interface TransactionFacts<T extends TransactionType> extends CommandReads {
  readonly transactionId: string;
  readonly effectiveDate: string;
  readonly payload: TransactionPayloads[T];
}

/** A command that changed nothing (its `prepare` answered null). */
export interface Unchanged extends CommandReads {
  readonly transactionId: null;
  readonly payload: null;
}

/** What a command did: a transaction, or nothing. */
export type CommandOutcome<T extends TransactionType> = TransactionFacts<T> | Unchanged;

/** The kinds of record a route answers with and an event carries. */
export type ViewKind = Extract<
  RecordKind,
  | 'shareholdings'
  | 'securities'
  | 'plans'
  | 'schedules'
  | 'legends'
  | 'valuations'
  | 'capitalChanges'
  | 'holdings'
  | 'requests'
>;

/** The event of one write (its type among the registry's, see scripts/ledger-events.ts). */
export interface TransactionEvent<T extends TransactionType> {
  readonly type: EventType;
  /** In the catalogue of public events: the event list shows it, webhooks deliver it. */
  readonly public: boolean;
  /** Who may read it: the read permission of the record it carries (and its subjects). */
  readonly audience: PermissionName;
  /**
   * The schema of its `data.object` in the published contract (an OpenAPI schema: a `$ref` to
   * the view it carries), made when the document is; a public event's is listed under its type.
   */
  readonly object?: () => object;
  /** The records whose views before the transaction `describe` compares. */
  before?(payload: TransactionPayloads[T]): { kind: ViewKind; id: string }[];
  /**
   * The event from the records as the transaction left them; `input` is the command's (for
   * what the ledger does not keep, such as a member's name).
   */
  describe(
    facts: TransactionFacts<T>,
    answer: object | undefined,
    input: unknown,
  ): Promise<DescribedEvent>;
}

export interface DescribedEvent {
  object: object;
  /** What happened, naming what changed (the activity entry's description). */
  description: string;
  previous?: Record<string, unknown>;
  /** The members it is about (the holder): they see it without the audience permission. */
  subjects?: string[];
}

/** The route of a transaction's command (its answer made from the command's outcome). */
export type TransactionRoute<T extends TransactionType, I> = CommandRoute<I, CommandOutcome<T>>;

/** The route of a command: its path under `/v1`, its access, its body and its answer. */
export interface CommandRoute<I, R> {
  readonly method: 'POST' | 'PUT' | 'PATCH';
  /** Under `/v1`, with `:organization` and the record's parameter (`organization/:organization/...`). */
  readonly path: string;
  readonly permission: PermissionName;
  readonly target?: PermissionTarget;
  readonly status: 200 | 201;
  readonly summary: string;
  readonly description: string;
  /** The body's DTO (validated by the ValidationPipe). */
  readonly body: Type<object>;
  /**
   * A body it accepts for any active record of its path's kind (the document's example; the
   * freshness test writes every type with it).
   */
  readonly example: object;
  /** The command's input from the body and the path's parameters. */
  input(body: object, params: Record<string, string>): I;
  /** The answer's class (documented) and how it is made. */
  readonly answer: Type<object>;
  respond(done: R): Promise<object>;
  /** Keyed errors it may answer (documented under their statuses). */
  readonly errors?: string[];
  /** What a 409 means for it. */
  readonly conflict?: string;
}

/**
 * An event's `object`: a view of the document by its class's name (a definition cannot import the
 * views, which read the registry); `npm run openapi -- check` refuses a name that is not there.
 */
export const documentedView = (name: string) => () => ({ $ref: `#/components/schemas/${name}` });

/** An event's `object` that is a holding, of whichever type (as the holdings' routes show it). */
export const documentedHolding = () => ({
  oneOf: ['GrantView', 'WarrantView', 'NoteView', 'SafeView'].map((name) => ({
    $ref: `#/components/schemas/${name}`,
  })),
});

/** A definition's `validate` when the type has no rule beyond what `apply` checks. */
export const noRules = (): void => undefined;
