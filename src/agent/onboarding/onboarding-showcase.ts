import { DomainError } from '../../common';
import {
  coerceField,
  DRAFT_COLLECTIONS,
  ITEM_COLLECTIONS,
  type DraftCollection,
  type OnboardingDraft,
} from './draft';
import { checkStored } from './onboarding-check';
import type { ShowcaseItemView, ShowcaseView } from './onboarding.view';
import type { StoredCorrection } from './store/onboarding.entity';
import {
  findItem,
  plainDraft,
  type ItemSource,
  type StoredDraft,
  type StoredItem,
} from './store/stored-draft';

/** Below this confidence the showcase asks the founder to look at an item. */
const LOW_CONFIDENCE = 0.5;

/** An item's label, as its collection words it. */
function labelIn(place: DraftCollection, item: StoredItem, draft: OnboardingDraft): string {
  const entry = DRAFT_COLLECTIONS[place] as { label(item: unknown, d: OnboardingDraft): string };
  return entry.label(item.fields, draft);
}

/** How the showcase names an item. */
export function labelOf(stored: StoredDraft, itemId: string): string {
  const found = findItem(stored, itemId);
  if (!found) return 'an item';
  const draft = plainDraft(stored) as unknown as OnboardingDraft;
  return labelIn(found.place, found.item, draft);
}

/**
 * The draft with one field of one item set by the founder (coerced to the field's type):
 * 404 for an item the draft lacks, 400 for a field it cannot have or a value that does not fit.
 */
export function applyCorrection(
  stored: StoredDraft,
  c: StoredCorrection,
  source: ItemSource = 'correction',
): { draft: StoredDraft; value: unknown } {
  const found = findItem(stored, c.itemId);
  if (!found) throw DomainError.notFound('no such item in the draft');
  const coerced = coerceField(found.place, c.fieldPath, c.newValue);
  if ('error' in coerced)
    throw DomainError.badRequest(coerced.error, { body: { field: 'newValue' } });
  const item: StoredItem = {
    ...found.item,
    source,
    fields: { ...found.item.fields, [c.fieldPath]: coerced.value },
  };
  const draft: StoredDraft =
    found.place === 'organization'
      ? { ...stored, organization: item }
      : {
          ...stored,
          lists: {
            ...stored.lists,
            [found.place]: stored.lists[found.place].map((x, i) => (i === found.index ? item : x)),
          },
        };
  return { draft, value: coerced.value };
}

/**
 * The preview of what a build would create, each item with what the checks (as of `today`) found
 * wrong.
 */
export function showcase(stored: StoredDraft | null, today: string): ShowcaseView {
  if (!stored) return { items: [], totals: {} };
  const { problems, totals } = checkStored(stored, today);
  const draft = plainDraft(stored) as unknown as OnboardingDraft;
  const issuesOf = (item: StoredItem) => {
    const issues = problems
      .filter((p) => p.item.itemId === item.itemId)
      .map((p) => (p.fieldPath ? `${p.fieldPath}: ${p.reason}` : p.reason));
    const confidence = Number(item.fields.confidence ?? 1);
    if (item.source !== 'correction' && confidence < LOW_CONFIDENCE) {
      issues.push('low confidence: please check');
    }
    return issues;
  };
  const view = (place: DraftCollection, item: StoredItem): ShowcaseItemView => {
    const { confidence, ...fields } = item.fields;
    return {
      itemId: item.itemId,
      type: DRAFT_COLLECTIONS[place].type,
      label: labelIn(place, item, draft),
      fields,
      source: item.source,
      confidence: typeof confidence === 'number' ? confidence : 1,
      issues: issuesOf(item),
    };
  };
  return {
    items: [
      view('organization', stored.organization),
      ...ITEM_COLLECTIONS.flatMap((list) => stored.lists[list].map((item) => view(list, item))),
    ],
    totals: totals as unknown as Record<string, unknown>,
  };
}
