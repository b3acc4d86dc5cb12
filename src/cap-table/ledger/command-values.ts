import { isWholeNumber, toDecimal, toDecimalString } from '../../../libs/cap-math';
import { LedgerRuleError } from './ledger-state';
import type { CommandContext } from './transactions/definition';

/**
 * A command's quantity as the log keeps it (canonical text): whole shares, unless the
 * organization is an LLC (fractional units). Refused naming the field.
 */
export function commandQuantity(value: string, field: string, context: CommandContext): string {
  const d = toDecimal(value);
  if (context.organization.type !== 'llc' && !isWholeNumber(d)) {
    throw new LedgerRuleError(
      'invalid',
      `${field} must be a whole number of shares (fractional units are for LLCs)`,
      field,
    );
  }
  return toDecimalString(d);
}

/** The canonical text of a price or amount (`1.50` → `1.5`), null kept. */
export const decimalOrNull = (value: string | null | undefined): string | null =>
  value === undefined || value === null ? null : toDecimalString(toDecimal(value));

/** How an event lists what a change did to fields: `quantity 10 -> 20; issueDate ...`. */
export function describeChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  fields: readonly string[],
): string {
  const show = (v: unknown) =>
    v === null || v === undefined ? 'none' : Array.isArray(v) ? `[${v.join(', ')}]` : String(v);
  return fields.map((k) => `${k} ${show(before[k])} -> ${show(after[k])}`).join('; ');
}
