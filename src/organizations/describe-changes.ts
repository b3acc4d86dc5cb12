/** `name "Acme" -> "Acme Inc."; currency USD -> EUR`: what changed, for activity descriptions. */
export function describeChanges<T extends object>(
  before: T,
  after: T,
  fields: (keyof T & string)[],
): string[] {
  return fields
    .filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]))
    .map((f) => `${f} ${show(before[f])} -> ${show(after[f])}`);
}

const show = (value: unknown) =>
  value === null || value === undefined
    ? 'none'
    : typeof value === 'string' && /\s|^$/.test(value)
      ? `"${value}"`
      : String(value);

/** The fields of a patch that were given (undefined means "leave as it is"). */
export const definedOnly = <T extends object>(patch: T): Partial<T> =>
  Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
