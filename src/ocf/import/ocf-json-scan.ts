const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * JSON values (objects, arrays, strings, numbers, literals; an object's keys count as strings) one
 * object of a file may hold, itself and everything in it. The largest real OCF objects (vesting
 * terms with a condition per month) hold about a thousand; a file padded inside one object would
 * otherwise slip past the count of objects and cost the schema check an error per value.
 */
export const MAX_VALUES_PER_OBJECT = 10_000;

export type JsonScan =
  | { ok: true; entries: number }
  /** More than `maxEntries` entries; `path`: the list where the count went past. */
  | { ok: false; path: string; reason: string };

const pointer = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Measures a JSON text in one pass over its bytes, without parsing it, so that a file of millions
 * of values costs a scan and not a heap of objects: the entries of its top-level lists (the values
 * of an array that is the text itself or a member of the top-level object: an OCF file's `items`,
 * the manifest's file lists and comments), at most `maxEntries` in all; and the values of each
 * entry, and of the top-level object outside its lists, at most `maxValues` each. Stops at the
 * first limit passed. The text is not checked: JSON.parse does that afterwards. Bytes of UTF-8
 * sequences are never ASCII, so scanning bytes finds the structure scanning characters would.
 */
export function scanJson(
  bytes: Buffer,
  maxEntries: number,
  maxValues = MAX_VALUES_PER_OBJECT,
): JsonScan {
  let depth = 0;
  /** Whether each open container is an array, outermost first. */
  const arrays: boolean[] = [];
  /** The depth of the open counted list (0: none), its name, and the entry being read in it. */
  let listDepth = 0;
  let listName = '';
  let entry = -1;
  let entries = 0;
  /** Within a counted list, between entries: the next value starts one. */
  let expecting = false;
  let entryValues = 0;
  let outsideValues = 0;
  /** The last string read at depth 1, and whether a `:` followed it (it was a key). */
  let lastKey = '';
  let inScalar = false;

  /** Counts one value starting here; a reason when a limit is passed. */
  const value = (): JsonScan | null => {
    if (listDepth && depth === listDepth && expecting) {
      expecting = false;
      entry++;
      entryValues = 1;
      if (++entries > maxEntries) {
        return {
          ok: false,
          path: listDepth === 1 ? '' : `/${pointer(listName)}`,
          reason: `holds more than ${maxEntries} objects: not read`,
        };
      }
      return null;
    }
    if (listDepth && depth > listDepth) {
      if (++entryValues > maxValues) {
        const at = listDepth === 1 ? '' : `/${pointer(listName)}`;
        return {
          ok: false,
          path: `${at}/${entry}`,
          reason: `holds more than ${maxValues} JSON values: not read`,
        };
      }
      return null;
    }
    if (++outsideValues > maxValues) {
      return {
        ok: false,
        path: '',
        reason: `holds more than ${maxValues} JSON values outside its lists: not read`,
      };
    }
    return null;
  };

  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) {
      inScalar = false;
      continue;
    }
    if (b === QUOTE) {
      inScalar = false;
      const refused = value();
      if (refused) return refused;
      const start = i + 1;
      for (i++; i < bytes.length && bytes[i] !== QUOTE; i++) {
        if (bytes[i] === BACKSLASH) i++;
      }
      if (depth === 1 && !arrays[0]) lastKey = bytes.toString('utf8', start, i);
      continue;
    }
    if (b === COMMA || b === COLON) {
      inScalar = false;
      if (b === COMMA && listDepth && depth === listDepth) expecting = true;
      continue;
    }
    if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) {
      inScalar = false;
      if (depth === listDepth) {
        listDepth = 0;
        expecting = false;
      }
      depth--;
      arrays.pop();
      continue;
    }
    if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      inScalar = false;
      const refused = value();
      if (refused) return refused;
      depth++;
      arrays.push(b === OPEN_ARRAY);
      const counted = b === OPEN_ARRAY && (depth === 1 || (depth === 2 && !arrays[0]));
      if (counted) {
        listDepth = depth;
        listName = depth === 1 ? '' : lastKey;
        entry = -1;
        expecting = true;
      }
      continue;
    }
    // A number or a literal: counted at its first byte.
    if (!inScalar) {
      inScalar = true;
      const refused = value();
      if (refused) return refused;
    }
  }
  return { ok: true, entries };
}
