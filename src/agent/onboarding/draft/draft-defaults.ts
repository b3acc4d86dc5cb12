import Decimal from 'decimal.js';
import { instanceToPlain, plainToInstance } from 'class-transformer';
import { sum, toDecimalString } from '../../../../libs/cap-math';
import {
  DEFAULT_CLASS_TYPE,
  DEFAULT_CURRENCY,
  DEFAULT_PERIOD_TYPE,
  DEFAULT_STAKEHOLDER_TYPE,
  type DraftCollection,
} from './draft-collections';
import { DraftShareClass, OnboardingDraft } from './onboarding-draft.dto';

export interface Defaulted {
  collection: DraftCollection;
  /** null: the organization. */
  index: number | null;
  fieldPath: string;
}

/** The least a new Common class authorizes: room for the grants and rounds that follow. */
export const DEFAULT_COMMON_AUTHORIZED = '10000000';

/** Webmail and other shared domains say nothing of the company. */
const SHARED_DOMAINS = new Set([
  'gmail',
  'googlemail',
  'outlook',
  'hotmail',
  'live',
  'msn',
  'yahoo',
  'icloud',
  'me',
  'mac',
  'aol',
  'proton',
  'protonmail',
  'gmx',
  'yandex',
  'mail',
  'zoho',
  'fastmail',
  'hey',
]);

/** Second-level labels of country domains (`acme.co.uk`). */
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'ltd', 'plc']);

/** `alice@mail.acme-labs.io` → `Acme Labs`; undefined for a webmail address. */
export function nameFromEmail(email: string): string | undefined {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const labels = domain.split('.').slice(0, -1);
  if (labels.length > 1 && SECOND_LEVEL.has(labels[labels.length - 1])) labels.pop();
  const label = labels.pop();
  if (!label || SHARED_DOMAINS.has(label)) return undefined;
  return label
    .split(/[-_]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
}

const freeId = (taken: { id: string }[], wanted: string) => {
  let id = wanted;
  for (let n = 2; taken.some((x) => x.id === id); n++) id = `${wanted}-${n}`;
  return id;
};

/**
 * The "just set it up" path: what the model left out, filled with what a new organization is
 * usually given, each filled field listed. The name from the e-mail's domain, currency USD,
 * issue dates today, the default types, and a Common class (authorizing 10,000,000 or what is
 * issued and reserved of it, if more) for shareholdings and plans that name no class, or when
 * the draft has none. Never adds people or quantities. The input draft is not changed.
 */
export function withDefaults(
  input: OnboardingDraft,
  options: { email: string; today: string },
): { draft: OnboardingDraft; defaulted: Defaulted[] } {
  const draft = plainToInstance(OnboardingDraft, instanceToPlain(input));
  const defaulted: Defaulted[] = [];
  const org = draft.organization;
  const fill = <T extends object, K extends keyof T & string>(
    item: T,
    field: K,
    value: T[K] | undefined,
    collection: DraftCollection,
    index: number | null,
  ) => {
    if (item[field] !== undefined || value === undefined) return;
    item[field] = value;
    defaulted.push({ collection, index, fieldPath: field });
  };
  fill(org, 'name', nameFromEmail(options.email), 'organization', null);
  fill(org, 'currency', DEFAULT_CURRENCY, 'organization', null);
  draft.people.forEach((p, i) =>
    fill(p, 'stakeholder_type', DEFAULT_STAKEHOLDER_TYPE, 'people', i),
  );
  draft.shareClasses.forEach((c, i) =>
    fill(c, 'class_type', DEFAULT_CLASS_TYPE, 'shareClasses', i),
  );
  draft.vestingSchedules.forEach((v, i) =>
    fill(v, 'period_type', DEFAULT_PERIOD_TYPE, 'vestingSchedules', i),
  );
  for (const c of ['shareholdings', 'optionGrants', 'convertibles'] as const) {
    draft[c].forEach((x, i) => fill(x, 'date', options.today, c, i));
  }

  const classless = [
    ...draft.shareholdings.map((s, i) => ({ x: s, c: 'shareholdings' as const, i, n: s.quantity })),
    ...draft.optionPlans.map((p, i) => ({
      x: p,
      c: 'optionPlans' as const,
      i,
      n: p.initial_shares_reserved,
    })),
  ].filter(({ x }) => x.stock_class_id === undefined);
  if (!classless.length && draft.shareClasses.length) return { draft, defaulted };
  let common = draft.shareClasses.find((c) => c.class_type === 'COMMON');
  if (!common) {
    const needed = sum(classless.map(({ n }) => n));
    common = plainToInstance(DraftShareClass, {
      id: freeId(draft.shareClasses, 'common'),
      name: 'Common',
      class_type: 'COMMON',
      initial_shares_authorized: toDecimalString(Decimal.max(needed, DEFAULT_COMMON_AUTHORIZED)),
      confidence: 1,
    });
    draft.shareClasses.push(common);
    const index = draft.shareClasses.length - 1;
    for (const fieldPath of ['id', 'name', 'class_type', 'initial_shares_authorized']) {
      defaulted.push({ collection: 'shareClasses', index, fieldPath });
    }
  }
  for (const { x, c, i } of classless) fill(x, 'stock_class_id', common.id, c, i);
  return { draft, defaulted };
}
