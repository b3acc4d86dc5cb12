/**
 * How the holding commands' events describe a holding (their activity entries' text). It reads
 * the holding's view by its fields alone: the ledger's definitions use it, and the views import
 * the registry.
 */

/** `4800 shares`, `principal 100000 USD`, `100000 USD`: what the holding is of. */
export function sizeOf(view: {
  quantity?: string;
  principal?: string;
  amount?: string;
  currency?: string;
}): string {
  if (view.quantity !== undefined) return `${view.quantity} shares`;
  if (view.principal !== undefined) return `principal ${view.principal} ${view.currency}`;
  return `${view.amount} ${view.currency}`;
}

export const show = (v: unknown): string =>
  v === null || v === undefined
    ? 'none'
    : typeof v === 'object'
      ? JSON.stringify(v)
      : typeof v === 'string'
        ? v
        : String(v as number | boolean);
