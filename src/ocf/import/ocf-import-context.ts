import type { OcfImportContext } from '../../cap-table';
import type { ImportBook } from './ocf-import-book';
import type { PlanPools } from './ocf-plan-pools';
import type { Securities } from './ocf-securities';

/** What the transaction definitions' OCF imports see of the import: its parts, together. */
export function importContext(
  book: ImportBook,
  securities: Securities,
  pools: PlanPools,
): OcfImportContext {
  return {
    state: book.state,
    asOf: book.asOf,
    fractional: book.fractional,
    members: book.members,
    classes: book.classes,
    legends: book.legends,
    plans: book.plans,
    pools: book.pools,
    schedules: book.schedules,
    issuedBy: securities.issuedBy,
    vestingStarts: securities.vestingStarts,
    targets: securities.targets,
    newId: () => book.newId(),
    problem: (l, field, reason) => book.problem(l, field, reason),
    warn: (l, field, reason) => book.warn(l, field, reason),
    keep: (o, ...fields) => book.keep(o, ...fields),
    note: <T>(o: Parameters<ImportBook['note']>[0], key: string) => book.note<T>(o, key),
    notes: <T>(o: Parameters<ImportBook['notes']>[0], key: string) => book.notes<T>(o, key),
    quantity: (l, field, value) => book.quantity(l, field, value),
    record: (source, tx) => book.record(source, tx),
    target: (l, kind) => securities.target(l, kind),
    issued: (l, security, target) => securities.issued(l, security, target),
    resulting: (l) => securities.resulting(l),
    oneResult: (l) => securities.oneResult(l),
    balance: (l, target, remaining) => securities.balance(l, target, remaining),
    fitPools: (l, planId, planPools) => pools.fitPools(l, planId, planPools),
  };
}
