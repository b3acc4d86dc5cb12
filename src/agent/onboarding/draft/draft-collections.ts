import { numberInFigures } from '../../../documents';
import {
  CLASS_TYPES,
  CONVERTIBLE_TYPES,
  DraftConvertible,
  DraftOptionGrant,
  DraftOptionPlan,
  DraftOptionPool,
  DraftOrganization,
  DraftPerson,
  DraftShareClass,
  DraftShareholding,
  DraftVestingSchedule,
  ENTITY_TYPES,
  PERIOD_TYPES,
  STAKEHOLDER_TYPES,
  type OnboardingDraft,
} from './onboarding-draft.dto';

/** The lists of a draft (its items have ids). */
export const ITEM_COLLECTIONS = [
  'people',
  'shareClasses',
  'vestingSchedules',
  'optionPlans',
  'optionPools',
  'shareholdings',
  'optionGrants',
  'convertibles',
] as const;
export type ItemCollection = (typeof ITEM_COLLECTIONS)[number];
export type DraftCollection = 'organization' | ItemCollection;

export type ItemOf<C extends DraftCollection> = C extends ItemCollection
  ? OnboardingDraft[C][number]
  : DraftOrganization;

export type DraftItemType =
  | 'organization'
  | 'person'
  | 'shareClass'
  | 'shareholding'
  | 'optionPlan'
  | 'optionPool'
  | 'optionGrant'
  | 'convertible'
  | 'vestingSchedule';

/** The defaults of fields the model may leave out (applied by the OCF mapping, listed by withDefaults). */
export const DEFAULT_CURRENCY = 'USD';
export const DEFAULT_STAKEHOLDER_TYPE = 'INDIVIDUAL';
export const DEFAULT_CLASS_TYPE = 'COMMON';
export const DEFAULT_PERIOD_TYPE = 'MONTHS';

const byId = <T extends { id: string }>(items: T[], id: string | undefined) =>
  items.find((x) => x.id === id);
const nameOf = (items: { id: string; name: string }[], id: string | undefined) =>
  byId(items, id)?.name ?? id ?? '?';
const currencyOf = (draft: OnboardingDraft) => draft.organization.currency ?? DEFAULT_CURRENCY;
const money = (draft: OnboardingDraft, amount: string) =>
  `${numberInFigures(amount)} ${currencyOf(draft)}`;

interface CollectionEntry<C extends DraftCollection> {
  collection: C;
  type: DraftItemType;
  /** The DTO class of its items (coerceField checks a correction with its rules). */
  itemClass: new () => ItemOf<C>;
  /** What a person reads in the preview: "Alice Smith: 4,000,000 Common". */
  label(item: ItemOf<C>, draft: OnboardingDraft): string;
}

export const DRAFT_COLLECTIONS: { [C in DraftCollection]: CollectionEntry<C> } = {
  organization: {
    collection: 'organization',
    type: 'organization',
    itemClass: DraftOrganization,
    label: (o) => o.name ?? o.legal_name ?? 'The organization',
  },
  people: {
    collection: 'people',
    type: 'person',
    itemClass: DraftPerson,
    label: (p) => (p.title ? `${p.name} (${p.title})` : p.name),
  },
  shareClasses: {
    collection: 'shareClasses',
    type: 'shareClass',
    itemClass: DraftShareClass,
    label: (c) => `${c.name}: ${numberInFigures(c.initial_shares_authorized)} authorized`,
  },
  vestingSchedules: {
    collection: 'vestingSchedules',
    type: 'vestingSchedule',
    itemClass: DraftVestingSchedule,
    label: (v) => {
      const unit = (v.period_type ?? DEFAULT_PERIOD_TYPE) === 'DAYS' ? 'day' : 'month';
      const each = v.period_length === 1 ? unit : `${v.period_length} ${unit}s`;
      const cliff = v.cliff_installment ? `, ${v.cliff_installment} at the cliff` : '';
      return `${v.name}: ${v.occurrences} periods of ${each}${cliff}`;
    },
  },
  optionPlans: {
    collection: 'optionPlans',
    type: 'optionPlan',
    itemClass: DraftOptionPlan,
    label: (p, d) =>
      `${p.plan_name}: ${numberInFigures(p.initial_shares_reserved)} ${nameOf(d.shareClasses, p.stock_class_id)} reserved`,
  },
  optionPools: {
    collection: 'optionPools',
    type: 'optionPool',
    itemClass: DraftOptionPool,
    label: (p, d) =>
      `${p.name} (${byId(d.optionPlans, p.stock_plan_id)?.plan_name ?? p.stock_plan_id}): ${numberInFigures(p.shares_reserved)} reserved`,
  },
  shareholdings: {
    collection: 'shareholdings',
    type: 'shareholding',
    itemClass: DraftShareholding,
    label: (s, d) =>
      `${nameOf(d.people, s.stakeholder_id)}: ${numberInFigures(s.quantity)} ${nameOf(d.shareClasses, s.stock_class_id)}`,
  },
  optionGrants: {
    collection: 'optionGrants',
    type: 'optionGrant',
    itemClass: DraftOptionGrant,
    label: (g, d) =>
      `${nameOf(d.people, g.stakeholder_id)}: options on ${numberInFigures(g.quantity)} shares at ${money(d, g.exercise_price)}`,
  },
  convertibles: {
    collection: 'convertibles',
    type: 'convertible',
    itemClass: DraftConvertible,
    label: (c, d) =>
      `${nameOf(d.people, c.stakeholder_id)}: ${c.convertible_type === 'CONVERTIBLE_SECURITY' ? 'convertible' : c.convertible_type} of ${money(d, c.investment_amount)}`,
  },
};

/** Where an item's field points: the list whose item `id` it names. */
export const REFERENCES: { collection: ItemCollection; field: string; target: ItemCollection }[] = [
  { collection: 'optionPlans', field: 'stock_class_id', target: 'shareClasses' },
  { collection: 'optionPools', field: 'stock_plan_id', target: 'optionPlans' },
  { collection: 'shareholdings', field: 'stakeholder_id', target: 'people' },
  { collection: 'shareholdings', field: 'stock_class_id', target: 'shareClasses' },
  { collection: 'optionGrants', field: 'stakeholder_id', target: 'people' },
  { collection: 'optionGrants', field: 'stock_plan_id', target: 'optionPlans' },
  { collection: 'optionGrants', field: 'pool_id', target: 'optionPools' },
  { collection: 'optionGrants', field: 'vesting_terms_id', target: 'vestingSchedules' },
  { collection: 'convertibles', field: 'stakeholder_id', target: 'people' },
];

/** How a correction typed as text is read: a kind, or the values of an enumeration. */
export type FieldKind =
  'text' | 'email' | 'decimal' | 'fraction' | 'integer' | 'date' | 'reference' | readonly string[];

export interface FieldSpec {
  kind: FieldKind;
  /** May be cleared (an empty correction removes it). */
  optional: boolean;
}

const req = (kind: FieldKind): FieldSpec => ({ kind, optional: false });
const opt = (kind: FieldKind): FieldSpec => ({ kind, optional: true });

/** The fields a person may correct, by list (`id`, `confidence` and `source` are the model's). */
export const DRAFT_FIELDS: { [C in DraftCollection]: Record<string, FieldSpec> } = {
  organization: {
    name: req('text'),
    legal_name: opt('text'),
    country_of_formation: opt('text'),
    currency: opt('text'),
    entity_type: opt(ENTITY_TYPES),
  },
  people: {
    name: req('text'),
    email: opt('email'),
    stakeholder_type: opt(STAKEHOLDER_TYPES),
    title: opt('text'),
  },
  shareClasses: {
    name: req('text'),
    class_type: opt(CLASS_TYPES),
    default_id_prefix: opt('text'),
    initial_shares_authorized: req('decimal'),
    votes_per_share: opt('decimal'),
    price_per_share: opt('decimal'),
    par_value: opt('decimal'),
    seniority: opt('integer'),
  },
  vestingSchedules: {
    name: req('text'),
    description: opt('text'),
    period_length: req('integer'),
    period_type: opt(PERIOD_TYPES),
    occurrences: req('integer'),
    cliff_installment: opt('integer'),
  },
  optionPlans: {
    plan_name: req('text'),
    stock_class_id: opt('reference'),
    initial_shares_reserved: req('decimal'),
    board_approval_date: opt('date'),
  },
  optionPools: {
    stock_plan_id: req('reference'),
    name: req('text'),
    shares_reserved: req('decimal'),
  },
  shareholdings: {
    stakeholder_id: req('reference'),
    stock_class_id: opt('reference'),
    quantity: req('decimal'),
    share_price: opt('decimal'),
    date: opt('date'),
  },
  optionGrants: {
    stakeholder_id: req('reference'),
    stock_plan_id: req('reference'),
    pool_id: opt('reference'),
    quantity: req('decimal'),
    exercise_price: req('decimal'),
    date: opt('date'),
    expiration_date: opt('date'),
    vesting_terms_id: opt('reference'),
    vesting_start_date: opt('date'),
  },
  convertibles: {
    stakeholder_id: req('reference'),
    convertible_type: req(CONVERTIBLE_TYPES),
    investment_amount: req('decimal'),
    date: opt('date'),
    valuation_cap: opt('decimal'),
    discount: opt('fraction'),
    interest_rate: opt('fraction'),
    maturity_date: opt('date'),
  },
};

export const isDraftCollection = (c: string): c is DraftCollection =>
  Object.prototype.hasOwnProperty.call(DRAFT_COLLECTIONS, c);

/** The label of an item of the draft (the organization's when `collection` is `organization`). */
export function labelOf(draft: OnboardingDraft, collection: DraftCollection, index: number) {
  if (collection === 'organization') {
    return DRAFT_COLLECTIONS.organization.label(draft.organization, draft);
  }
  const entry = DRAFT_COLLECTIONS[collection] as CollectionEntry<ItemCollection>;
  return entry.label(draft[collection][index], draft);
}
