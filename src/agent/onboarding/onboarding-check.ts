import { checkDraft, type DraftProblem, type DraftTotals, type OnboardingDraft } from './draft';
import { itemAt, plainDraft, type StoredDraft, type StoredItem } from './store/stored-draft';

/** A problem of the draft, on the item it is about. */
export interface ItemProblem {
  item: StoredItem;
  fieldPath: string | null;
  reason: string;
}

/**
 * The options the draft's own organization gives the checks (its currency, LLC or not), as of
 * `today` (the caller's clock, UTC `YYYY-MM-DD`).
 */
export function checkOptions(draft: OnboardingDraft, today: string) {
  return {
    currency: draft.organization?.currency ?? 'USD',
    fractional: draft.organization?.entity_type === 'llc',
    today,
  };
}

/** Every check of the stored draft (references, OCF schemas, the ledger's replay), by item. */
export function checkStored(
  stored: StoredDraft,
  today: string,
): { problems: ItemProblem[]; totals: DraftTotals } {
  const draft = plainDraft(stored) as unknown as OnboardingDraft;
  const { problems, totals } = checkDraft(draft, checkOptions(draft, today));
  return { problems: problems.map((p) => onItem(stored, p)), totals };
}

function onItem(stored: StoredDraft, p: DraftProblem): ItemProblem {
  const item = itemAt(stored, p.collection, p.index) ?? stored.organization;
  return { item, fieldPath: p.fieldPath ?? null, reason: p.reason };
}
