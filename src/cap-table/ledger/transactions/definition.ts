import type { LedgerState } from '../ledger-state';
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
  /** A payload logged by an earlier version brought to today's shape (replays read old logs). */
  upgrade?(payload: TransactionPayloads[T]): TransactionPayloads[T];
}

/** A definition's `validate` when the type has no rule beyond what `apply` checks. */
export const noRules = (): void => undefined;
