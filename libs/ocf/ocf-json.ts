import { toDecimal, toDecimalString } from '../cap-math';

/** Reading the JSON of an OCF object: typed access, decimals, and the export's comments. */

/** A JSON object of a package (an OCF object or the manifest). */
export type Json = Record<string, unknown>;

/** An OCF object where it was found: its file and JSON pointer (for problems and warnings). */
export interface Located {
  file: string;
  path: string;
  object: Json;
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const obj = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const amount = (v: unknown): string | null => {
  const a = str(obj(v)?.amount);
  return a === undefined ? null : canonical(a);
};
export const canonical = (d: string) => toDecimalString(toDecimal(d));
/** OCF percentages are fractions (0.2); the ledger's are 0–100 ("20"). */
export const percent = (v: unknown): string | null => {
  const s = str(v);
  return s === undefined ? null : toDecimalString(toDecimal(s).times(100));
};
export const empty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** The prefix of the comments the export writes for facts OCF has no field for (`ledgerline:<key>=<JSON>`). */
export const NOTE = /^ledgerline:([A-Za-z]+)=([\s\S]*)$/;

/** An object's `ledgerline:` comments by key (values parsed; unreadable ones left out). */
export function notesOf(o: Json): Map<string, unknown[]> {
  const notes = new Map<string, unknown[]>();
  for (const c of arr(o.comments)) {
    const m = typeof c === 'string' ? NOTE.exec(c) : null;
    if (!m) continue;
    try {
      notes.set(m[1], [...(notes.get(m[1]) ?? []), JSON.parse(m[2]) as unknown]);
    } catch {
      // Not JSON: left to the comment warnings.
    }
  }
  return notes;
}
