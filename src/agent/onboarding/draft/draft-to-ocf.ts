import { getOcfValidator, type Json, type Located, type OcfItem } from '../../../../libs/ocf';
import {
  emptyState,
  ocfMappingOf,
  type LedgerLogEntry,
  type OcfExportContext,
  type TransactionPayloads,
  type TransactionType,
} from '../../../cap-table';
import type { OcfPackage, OcfProblem } from '../../../ocf';
import { emptyPackage, stakeholder, stockClass, stockPlan, vestingTerms } from '../../../ocf';
import {
  DEFAULT_CLASS_TYPE,
  DEFAULT_CURRENCY,
  DEFAULT_STAKEHOLDER_TYPE,
  ITEM_COLLECTIONS,
  type ItemCollection,
} from './draft-collections';
import {
  classState,
  convertibleRecord,
  grantRecord,
  ocfIdOf,
  planState,
  poolState,
  scheduleState,
  securityIdOf,
} from './draft-records';
import type { OnboardingDraft } from './onboarding-draft.dto';

/** The one "file" of a draft's package: every object's path is `/<list>/<index>` of the draft. */
export const DRAFT_FILE = 'onboarding-draft';

export interface DraftPackageOptions {
  /** The date of what the draft leaves undated. */
  today: string;
  /** Of every amount; default the draft's, else USD. */
  currency?: string;
  /** Items left out (checkDraft leaves out those whose own problems make them unreadable). */
  omit?: (collection: ItemCollection, index: number) => boolean;
}

/** What the export's transaction writers need of an export, for records that are not in a log. */
function exportContext(currency: string): OcfExportContext {
  return {
    state: emptyState(),
    currency,
    initialAuthorized: new Map(),
    initialReserved: new Map(),
    currencyOf: () => currency,
    securityIdOf: (id) => id,
    replaceSecurity: () => undefined,
    amendmentComments: () => [],
    amended: (h) => h,
    keepInManifest: () => undefined,
  };
}

/** The OCF objects the export writes of one log entry of `type`. */
function written<T extends TransactionType>(
  ctx: OcfExportContext,
  type: T,
  id: string,
  date: string,
  payload: TransactionPayloads[T],
): OcfItem[] {
  const row: LedgerLogEntry = {
    id,
    type,
    effectiveDate: date,
    payload: { ...payload },
    made: null,
    source: null,
  };
  return ocfMappingOf(type)!.export.map!(row, payload, ctx);
}

/**
 * The draft as an in-memory OCF package, as our export would write the organization it
 * describes: STAKEHOLDER, STOCK_CLASS, STOCK_PLAN (pools in its `ledgerline:pool` comments),
 * VESTING_TERMS, and TX_STOCK_ISSUANCE, TX_EQUITY_COMPENSATION_ISSUANCE (an OPTION, with its
 * TX_VESTING_START) and TX_CONVERTIBLE_ISSUANCE, each at `{file: DRAFT_FILE, path:
 * '/<list>/<index>'}`. OCF ids are `<list>:<draft id>` (security ids `…:security`); undated items
 * are dated `today`. Items whose references name no item of the package are left out (checkDraft
 * reports them).
 */
export function draftPackage(draft: OnboardingDraft, options: DraftPackageOptions): OcfPackage {
  const { today } = options;
  const currency = options.currency ?? draft.organization.currency ?? DEFAULT_CURRENCY;
  const ctx = exportContext(currency);
  const pkg = emptyPackage(DRAFT_FILE, { as_of: today });
  // What is kept of each list, by draft id (the first of an id: duplicates are reported).
  const kept = new Map<ItemCollection, Map<string, number>>();
  for (const c of ITEM_COLLECTIONS) {
    const ids = new Map<string, number>();
    draft[c].forEach((x, i) => {
      if (!options.omit?.(c, i) && !ids.has(x.id)) ids.set(x.id, i);
    });
    kept.set(c, ids);
  }
  const has = (c: ItemCollection, id: string | undefined) =>
    id !== undefined && kept.get(c)!.has(id);
  const each = <C extends ItemCollection>(
    c: C,
    f: (x: OnboardingDraft[C][number], at: (o: Json) => Located) => void,
  ) =>
    (draft[c] as OnboardingDraft[C][number][]).forEach((x, i) => {
      if (kept.get(c)!.get(x.id) === i)
        f(x, (object) => ({ file: DRAFT_FILE, path: `/${c}/${i}`, object }));
    });

  each('people', (p, at) => {
    const item = stakeholder({
      id: ocfIdOf('people', p.id),
      name: p.name,
      email: p.email ?? null,
      title: p.title ?? null,
      status: 'active',
    });
    pkg.stakeholders.push(
      at({ ...item, stakeholder_type: p.stakeholder_type ?? DEFAULT_STAKEHOLDER_TYPE }),
    );
  });
  // Preferred classes convert into the first common class, as the export writes them.
  const common = draft.shareClasses.find(
    (c) => has('shareClasses', c.id) && (c.class_type ?? DEFAULT_CLASS_TYPE) === 'COMMON',
  );
  each('shareClasses', (c, at) => {
    const into = common && common !== c ? ocfIdOf('shareClasses', common.id) : undefined;
    pkg.stockClasses.push(
      at(stockClass(classState(c, currency), c.initial_shares_authorized, into)),
    );
  });
  each('vestingSchedules', (v, at) => {
    const item = vestingTerms(scheduleState(v));
    pkg.vestingTerms.push(at(v.description ? { ...item, description: v.description } : item));
  });
  const pools = draft.optionPools.filter((x) => has('optionPools', x.id));
  each('optionPlans', (p, at) => {
    if (!has('shareClasses', p.stock_class_id)) return;
    const own = pools.filter((x) => x.stock_plan_id === p.id).map(poolState);
    pkg.plans.push(at(stockPlan(planState(p, p.stock_class_id!), p.initial_shares_reserved, own)));
  });

  each('shareholdings', (s, at) => {
    if (!has('people', s.stakeholder_id) || !has('shareClasses', s.stock_class_id)) return;
    const date = s.date ?? today;
    const items = written(ctx, 'TX_STOCK_ISSUANCE', ocfIdOf('shareholdings', s.id), date, {
      shareholdingId: securityIdOf('shareholdings', s.id),
      securityId: ocfIdOf('shareClasses', s.stock_class_id!),
      memberId: ocfIdOf('people', s.stakeholder_id),
      quantity: s.quantity,
      pricePerShare: s.share_price ?? null,
      issueDate: date,
      legendIds: [],
      consideration: null,
    });
    pkg.transactions.push(...items.map(at));
  });
  const planOf = new Map(draft.optionPlans.map((p) => [p.id, p]));
  each('optionGrants', (g, at) => {
    const plan = planOf.get(g.stock_plan_id);
    const refs: [ItemCollection, string | undefined][] = [
      ['people', g.stakeholder_id],
      ['optionPlans', g.stock_plan_id],
      ['shareClasses', plan?.stock_class_id],
    ];
    if (g.pool_id !== undefined) refs.push(['optionPools', g.pool_id]);
    if (g.vesting_terms_id !== undefined) refs.push(['vestingSchedules', g.vesting_terms_id]);
    if (!refs.every(([c, id]) => has(c, id))) return;
    const date = g.date ?? today;
    const holding = grantRecord(g, plan!.stock_class_id!, date);
    const id = ocfIdOf('optionGrants', g.id);
    const items = written(ctx, 'TX_EQUITY_COMPENSATION_ISSUANCE', id, date, { holding });
    pkg.transactions.push(...items.map(at));
  });
  each('convertibles', (c, at) => {
    if (!has('people', c.stakeholder_id)) return;
    const date = c.date ?? today;
    const holding = convertibleRecord(c, currency, date);
    const id = ocfIdOf('convertibles', c.id);
    const [item] = written(ctx, 'TX_CONVERTIBLE_ISSUANCE', id, date, { holding });
    // OCF's third kind; the import reports it has no counterpart in the ledger.
    if (c.convertible_type === 'CONVERTIBLE_SECURITY') item.convertible_type = c.convertible_type;
    pkg.transactions.push(at(item));
  });
  return pkg;
}

/** The draft item an object of a draft's package (or a problem about it) is at. */
export function draftLocation(
  file: string,
  path: string,
): { collection: ItemCollection; index: number; ocfPath: string[] } | null {
  const m = /^\/([A-Za-z]+)\/(\d+)((?:\/[^/]*)*)$/.exec(path);
  const collection = m?.[1] as ItemCollection | undefined;
  if (file !== DRAFT_FILE || !m || !ITEM_COLLECTIONS.includes(collection!)) return null;
  return {
    collection: collection!,
    index: Number(m[2]),
    ocfPath: m[3].split('/').filter(Boolean),
  };
}

/** Every object of the package checked against its OCF 1.2 schema, failures as problems. */
export function schemaProblems(pkg: OcfPackage): OcfProblem[] {
  const validator = getOcfValidator();
  const all = [
    ...pkg.stakeholders,
    ...pkg.stockClasses,
    ...pkg.plans,
    ...pkg.vestingTerms,
    ...pkg.transactions,
  ];
  return all.flatMap(({ file, path, object }) => {
    const type = String(object.object_type);
    return validator.validateObject(type, object).errors.map((e) => ({
      file,
      path: `${path}${e.path}`,
      reason: `not valid OCF (${type}${e.path}): ${e.message}`,
    }));
  });
}
