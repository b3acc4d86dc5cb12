import { randomUUID } from 'node:crypto';

import { ITEM_COLLECTIONS, type DraftCollection, type ItemCollection } from '../draft';

/** Where an item's values came from (the model says prompt or document; we say the rest). */
export const ITEM_SOURCES = ['prompt', 'document', 'answer', 'correction', 'default'] as const;
export type ItemSource = (typeof ITEM_SOURCES)[number];

/** One item of the draft: its fields as the model gave them (OCF names, its own `id`). */
export interface StoredItem {
  itemId: string;
  source: ItemSource;
  fields: Record<string, unknown>;
}

/** A draft as stored: every item with the UUID the routes name it by, kept across analyses. */
export interface StoredDraft {
  organization: StoredItem;
  lists: Record<ItemCollection, StoredItem[]>;
}

type Plain = Record<string, unknown>;

/** The draft the checks read: the model's shape, without our item ids and sources. */
export function plainDraft(stored: StoredDraft): Plain {
  const out: Plain = { organization: { ...stored.organization.fields } };
  for (const list of ITEM_COLLECTIONS) out[list] = stored.lists[list].map((i) => ({ ...i.fields }));
  return out;
}

/**
 * A checked draft as stored. An item keeps the item id it had in `previous` (same list, same
 * model id), so questions and corrections still name it after a new analysis; the model's
 * `source` (prompt or document) moves to the item, `fallback` when it gave none.
 */
export function storeDraft(draft: Plain, previous: StoredDraft | null, fallback: ItemSource) {
  const item = (fields: Plain, list: DraftCollection): StoredItem => {
    const { source, ...rest } = fields;
    const before =
      list === 'organization'
        ? previous?.organization
        : previous?.lists[list].find((p) => p.fields.id === rest.id);
    return {
      itemId: before?.itemId ?? randomUUID(),
      source: typeof source === 'string' ? (source as ItemSource) : (before?.source ?? fallback),
      fields: rest,
    };
  };
  const lists = {} as Record<ItemCollection, StoredItem[]>;
  for (const list of ITEM_COLLECTIONS) {
    lists[list] = ((draft[list] as Plain[] | undefined) ?? []).map((f) => item(f, list));
  }
  return { organization: item((draft.organization ?? {}) as Plain, 'organization'), lists };
}

/** The item with this id, where it is. */
export function findItem(
  stored: StoredDraft,
  itemId: string,
): { place: DraftCollection; index: number | null; item: StoredItem } | undefined {
  if (stored.organization.itemId === itemId) {
    return { place: 'organization', index: null, item: stored.organization };
  }
  for (const list of ITEM_COLLECTIONS) {
    const index = stored.lists[list].findIndex((i) => i.itemId === itemId);
    if (index >= 0) return { place: list, index, item: stored.lists[list][index] };
  }
  return undefined;
}

/** The item at a place of the draft (a check names items so). */
export function itemAt(
  stored: StoredDraft,
  place: DraftCollection,
  index: number | null,
): StoredItem | undefined {
  if (place === 'organization') return stored.organization;
  return index === null ? undefined : stored.lists[place][index];
}

export function itemByModelId(stored: StoredDraft, modelId: string): StoredItem | undefined {
  for (const list of ITEM_COLLECTIONS) {
    const found = stored.lists[list].find((i) => i.fields.id === modelId);
    if (found) return found;
  }
  return undefined;
}
