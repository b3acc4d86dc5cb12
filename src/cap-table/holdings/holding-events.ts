/** What the holding changes share: finding the locked holding, and their domain events. */
import { AccessContext, DomainError } from '../../common';
import type { DomainEvent, EventType } from '../../events';
import type { LedgerChange } from '../ledger/ledger-writer';
import type { HoldingState } from '../ledger/ledger-state';
import type { HoldingView } from './holding.view';
import { changeEvent } from '../change-event';

/** The holding as the change loaded it (404 when it is not the organization's). */
export function lockedHolding(c: LedgerChange, id: string): HoldingState {
  const h = c.state.holdings.get(id);
  if (!h) throw DomainError.notFound('no such holding');
  return h;
}

/** 409 unless the holding is active (a cancelled, repaid, converted or exercised one is final). */
export function assertActive(h: HoldingState): void {
  if (h.status !== 'active') throw DomainError.conflict(`the ${label(h.type)} is ${h.status}`);
}

/** A holding's domain event, its object the holding view. */
export const holdingEvent = (
  type: EventType,
  access: AccessContext,
  view: HoldingView,
  description: string,
  previous?: Record<string, unknown>,
): DomainEvent => changeEvent(type, access, view, description, previous);

const LABELS: Record<string, string> = {
  option_iso: 'ISO option grant',
  option_nso: 'NSO option grant',
  option: 'option grant',
  rsu: 'RSU grant',
  sar: 'SAR grant',
  warrant: 'warrant',
  convertible_note: 'convertible note',
  safe: 'SAFE',
};

/** `ISO option grant`, `convertible note`, `SAFE` ... for messages and activity descriptions. */
export const label = (type: string) => LABELS[type] ?? type;

/** `4800 shares`, `principal 100000 USD`, `100000 USD`: what the holding is of. */
export function sizeOf(view: HoldingView): string {
  if ('quantity' in view) return `${view.quantity} shares`;
  if ('principal' in view) return `principal ${view.principal} ${view.currency}`;
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
