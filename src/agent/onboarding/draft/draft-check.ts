import { sum, toDecimalString } from '../../../../libs/cap-math';
import { planImport, type ImportPlan, type OcfProblem } from '../../../ocf';
import {
  DRAFT_COLLECTIONS,
  DRAFT_FIELDS,
  ITEM_COLLECTIONS,
  REFERENCES,
  type DraftCollection,
  type ItemCollection,
} from './draft-collections';
import { draftLocation, draftPackage, schemaProblems } from './draft-to-ocf';
import type { OnboardingDraft } from './onboarding-draft.dto';

/** What stops the draft from becoming an organization, at the item (and field) it is about. */
export interface DraftProblem {
  collection: DraftCollection;
  /** null: the organization, or the draft as a whole. */
  index: number | null;
  fieldPath?: string;
  reason: string;
}

export interface DraftTotals {
  counts: Record<ItemCollection, number>;
  sharesAuthorized: string;
  sharesIssued: string;
  sharesReserved: string;
  optionsGranted: string;
  /** SAFEs and notes, in the organization's currency. */
  investment: string;
}

export interface CheckOptions {
  currency: string;
  /** LLC units may be fractional. */
  fractional: boolean;
  today: string;
}

export interface DraftCheck {
  problems: DraftProblem[];
  /** What the import would not keep (a CONVERTIBLE_SECURITY, …): the draft still builds. */
  warnings: DraftProblem[];
  totals: DraftTotals;
  /** The import's plan, when there is no problem. */
  plan?: ImportPlan;
}

/** OCF members whose draft field has another name. */
const ALIASES: Record<string, string> = {
  legal_name: 'name',
  contact_info: 'email',
  stock_class_ids: 'stock_class_id',
  conversion_valuation_cap: 'valuation_cap',
  conversion_discount: 'discount',
  interest_rates: 'interest_rate',
  // The only problem about a note's triggers: it has no maturity date.
  conversion_triggers: 'maturity_date',
  vesting_conditions: 'occurrences',
};

/** The field a refusal for too few shares is about, where the problem names none. */
const SHORT_OF_SHARES: Partial<Record<ItemCollection, string>> = {
  shareClasses: 'initial_shares_authorized',
  optionPlans: 'initial_shares_reserved',
  shareholdings: 'quantity',
  optionGrants: 'quantity',
};

const REFUSED = /^\S+ \S+ is refused by the ledger \((\w+)\): ([\s\S]*)$/;

/** The draft field an OCF pointer inside an item is about: its deepest member the draft has. */
function fieldOf(collection: ItemCollection, ocfPath: string[], rule?: string): string | undefined {
  const fields = DRAFT_FIELDS[collection];
  for (const segment of [...ocfPath].reverse()) {
    const name = ALIASES[segment] ?? segment;
    if (Object.prototype.hasOwnProperty.call(fields, name)) return name;
  }
  return rule === 'insufficientShares' ? SHORT_OF_SHARES[collection] : undefined;
}

/** An import problem at the draft item it is about; the ledger's refusal without its OCF preamble. */
function fromOcf(p: OcfProblem): DraftProblem {
  const at = draftLocation(p.file, p.path);
  const refused = REFUSED.exec(p.reason);
  const reason = refused ? refused[2] : p.reason;
  if (!at) return { collection: 'organization', index: null, reason };
  const fieldPath = fieldOf(at.collection, at.ocfPath, refused?.[1]);
  return {
    collection: at.collection,
    index: at.index,
    ...(fieldPath ? { fieldPath } : {}),
    reason,
  };
}

/**
 * Duplicate ids and references that name nothing, each reported at its item; returns the items
 * left out of the package: those, and the items referring to one left out (their own problems
 * wait until it is fixed). Lists are read in dependency order (ITEM_COLLECTIONS).
 */
function structure(draft: OnboardingDraft, problems: DraftProblem[]): Set<string> {
  const omitted = new Set<string>();
  const key = (c: ItemCollection, i: number) => `${c}/${i}`;
  const firstOf = new Map<ItemCollection, Map<string, number>>();
  if (!draft.organization.name) {
    problems.push({
      collection: 'organization',
      index: null,
      fieldPath: 'name',
      reason: 'the organization needs a name',
    });
  }
  for (const c of ITEM_COLLECTIONS) {
    const first = new Map<string, number>();
    firstOf.set(c, first);
    (draft[c] as { id: string }[]).forEach((item, i) => {
      const problem = (fieldPath: string, reason: string) => {
        problems.push({ collection: c, index: i, fieldPath, reason });
        omitted.add(key(c, i));
      };
      const seen = first.get(item.id);
      if (seen !== undefined)
        problem('id', `the id ${item.id} is also the id of ${c} item ${seen}`);
      else first.set(item.id, i);
      for (const ref of REFERENCES.filter((r) => r.collection === c)) {
        const id = (item as unknown as Record<string, string | undefined>)[ref.field];
        const target = id === undefined ? undefined : firstOf.get(ref.target)!.get(id);
        const what = DRAFT_COLLECTIONS[ref.target].type;
        if (id === undefined) {
          if (ref.field === 'stock_class_id') problem(ref.field, 'needs a share class');
        } else if (target === undefined) problem(ref.field, `no ${what} has the id ${id}`);
        else if (omitted.has(key(ref.target, target))) omitted.add(key(c, i));
      }
    });
  }
  // A grant's pool is a pool of its plan.
  draft.optionGrants.forEach((g, i) => {
    const pool = draft.optionPools.find((x) => x.id === g.pool_id);
    if (pool && pool.stock_plan_id !== g.stock_plan_id) {
      problems.push({
        collection: 'optionGrants',
        index: i,
        fieldPath: 'pool_id',
        reason: `the pool ${pool.name} is a pool of the plan ${pool.stock_plan_id}, not of ${g.stock_plan_id}`,
      });
      omitted.add(key('optionGrants', i));
    }
  });
  return omitted;
}

export function draftTotals(draft: OnboardingDraft): DraftTotals {
  const total = (values: string[]) => toDecimalString(sum(values));
  return {
    counts: Object.fromEntries(ITEM_COLLECTIONS.map((c) => [c, draft[c].length])) as Record<
      ItemCollection,
      number
    >,
    sharesAuthorized: total(draft.shareClasses.map((c) => c.initial_shares_authorized)),
    sharesIssued: total(draft.shareholdings.map((s) => s.quantity)),
    sharesReserved: total(draft.optionPlans.map((p) => p.initial_shares_reserved)),
    optionsGranted: total(draft.optionGrants.map((g) => g.quantity)),
    investment: total(draft.convertibles.map((c) => c.investment_amount)),
  };
}

/**
 * Whether the draft makes an organization, and everything that stops it: the draft's own
 * mistakes (duplicate ids, references to nothing), then its OCF package checked against the OCF
 * schemas and replayed by the OCF import (`planImport`: more issued than authorized, a plan
 * reserving more than its class has, grants beyond their pool, …), each at its item and field.
 */
export function checkDraft(draft: OnboardingDraft, options: CheckOptions): DraftCheck {
  const problems: DraftProblem[] = [];
  const omitted = structure(draft, problems);
  const totals = draftTotals(draft);
  const pkg = draftPackage(draft, {
    today: options.today,
    currency: options.currency,
    omit: (c, i) => omitted.has(`${c}/${i}`),
  });
  const invalid = schemaProblems(pkg);
  // The import reads only objects valid against their schema.
  if (invalid.length)
    return { problems: [...problems, ...invalid.map(fromOcf)], warnings: [], totals };
  const planned = planImport(pkg, {
    membersByEmail: new Map(),
    currency: options.currency,
    fractional: options.fractional,
    today: options.today,
  });
  if ('problems' in planned) {
    // Every reference was checked above: a record the ledger cannot find is one it refused
    // earlier (a plan's pools after the plan), which that refusal explains.
    const explained = planned.problems.filter((p) => !/\(notFound\)/.test(p.reason));
    return { problems: [...problems, ...explained.map(fromOcf)], warnings: [], totals };
  }
  const warnings = onePerItem(planned.plan.warnings.filter(worthSaying).map(fromOcf));
  return problems.length
    ? { problems, warnings, totals }
    : { problems, warnings, totals, plan: planned.plan };
}

/**
 * The import's warnings a person should read: what it leaves out. Those about how the export's
 * own writing is read back (certificate numbers, comments, triggers) say nothing of the draft.
 */
const worthSaying = (w: OcfProblem) =>
  /not imported$|has no counterpart/.test(w.reason) && !/comments|custom_id/.test(w.path);

/** The first warning of each item (the import says why, then that it left the item out). */
function onePerItem(warnings: DraftProblem[]): DraftProblem[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = `${w.collection}/${w.index}`;
    return !seen.has(key) && !!seen.add(key);
  });
}
