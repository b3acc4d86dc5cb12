import type Decimal from 'decimal.js';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import {
  Block,
  LedgerRuleError,
  LedgerState,
  SecurityState,
  ShareholdingState,
} from './ledger-state';

/** The checks and moves the reducer's rules share. */

/**
 * The ledger's capacity: the first count its columns (numeric(38, 10)) cannot hold, 29 digits
 * before the point. Quantities, share numbers and prices stay below it.
 */
export const TOO_MANY_SHARES = toDecimal(`1${'0'.repeat(28)}`);

/** The value has at most 28 digits before the point: the ledger's columns hold it. */
export const fitsTheLedger = (value: Decimal) => value.abs().lt(TOO_MANY_SHARES);

/**
 * The capacity rule, wherever a quantity, a share number or a price can grow: refused as invalid
 * input (naming `field`) before the database would refuse the write. `what` says what would pass
 * the limit (`quantity would take authorizedShares`).
 */
export function assertFits(value: Decimal, what: string, field?: string) {
  if (!fitsTheLedger(value)) {
    throw new LedgerRuleError('invalid', `${what} past 28 digits before the point`, field);
  }
}

/** Issues shares of the class out of its unissued balance (authorized less issued and reserved). */
export function issue(state: LedgerState, s: SecurityState, quantity: Decimal, strict: boolean) {
  if (strict) assertIssuable(s, quantity);
  s.issued = s.issued.plus(quantity);
  state.put('securities', s);
}

/**
 * The class has `quantity` unissued shares to issue (authorized less issued and reserved), and
 * numbers for them.
 */
export function assertIssuable(s: SecurityState, quantity: Decimal) {
  if (s.issued.plus(s.reserved).plus(quantity).gt(s.authorized)) {
    throw new LedgerRuleError(
      'insufficientShares',
      `class ${s.name} has ${toDecimalString(unissued(s))} unissued shares${s.reserved.isZero() ? '' : ` (${toDecimalString(s.reserved)} more are reserved for plans)`}, less than ${toDecimalString(quantity)}`,
    );
  }
  assertNumberable(s, quantity);
}

/**
 * The class can number `quantity` more shares: share numbers only grow (a void retires its
 * numbers), so a class that issued and voided nearly all it can hold would number new shares
 * past the ledger's capacity. A split numbers the class anew from 1.
 */
export function assertNumberable(s: SecurityState, quantity: Decimal) {
  assertFits(
    s.nextShareNumber.plus(quantity).minus(1),
    `quantity would take the share numbers of class ${s.name} (a split numbers them anew)`,
    'quantity',
  );
}

/** A class that was deleted issues nothing more. */
export function assertLiveClass(s: SecurityState) {
  if (s.deleted) throw new LedgerRuleError('conflict', `class ${s.name} was deleted`);
}

/** A class that is there to change: a deleted one is gone, as for its routes (404). */
export function liveSecurity(state: LedgerState, id: string): SecurityState {
  const s = security(state, id);
  if (s.deleted) throw new LedgerRuleError('notFound', `class ${s.name} was deleted`);
  return s;
}

/** Authorized shares neither issued nor reserved for a plan. */
export const unissued = (s: SecurityState) => s.authorized.minus(s.issued).minus(s.reserved);

export interface NewShareholding {
  id: string;
  memberId: string;
  securityId: string;
  quantity: Decimal;
  pricePerShare: string | null;
  issueDate: string;
  legendIds: string[];
  consideration: string | null;
}

/**
 * A new certificate of shares already counted as issued: numbered from the class prefix, its
 * share numbers the class's next ones.
 */
export function addShareholding(state: LedgerState, s: SecurityState, n: NewShareholding) {
  state.put('shareholdings', {
    ...n,
    certificateNumber: `${s.idPrefix}${s.nextCertificateNumber++}`,
    status: 'active',
    transferredFromId: null,
  });
  state.putBlocks(n.id, [numberShares(s, n.quantity)]);
  state.put('securities', s);
}

/** The next `quantity` share numbers of the class. */
export function numberShares(s: SecurityState, quantity: Decimal): Block {
  const block = { from: s.nextShareNumber, to: s.nextShareNumber.plus(quantity).minus(1) };
  s.nextShareNumber = s.nextShareNumber.plus(quantity);
  return block;
}

/** Changes a holding's quantity: more shares are numbered anew, fewer leave from the top. */
export function resize(
  state: LedgerState,
  h: ShareholdingState,
  quantity: Decimal,
  strict: boolean,
) {
  const s = security(state, h.securityId);
  const delta = quantity.minus(h.quantity);
  const blocks = state.blocks.get(h.id) ?? [];
  if (delta.gt(0)) {
    issue(state, s, delta, strict);
    blocks.push(numberShares(s, delta));
  } else if (delta.lt(0)) {
    s.issued = s.issued.plus(delta);
    dropHighest(blocks, delta.neg());
    state.put('securities', s);
  }
  h.quantity = quantity;
  state.putBlocks(h.id, blocks);
  state.put('shareholdings', h);
}

/** Splits blocks into the lowest-numbered `quantity` shares and the rest. */
export function takeLowest(blocks: Block[], quantity: Decimal): [Block[], Block[]] {
  const sorted = [...blocks].sort((a, b) => a.from.comparedTo(b.from));
  const moved: Block[] = [];
  const kept: Block[] = [];
  let remaining = quantity;
  for (const b of sorted) {
    const size = b.to.minus(b.from).plus(1);
    if (remaining.isZero()) kept.push(b);
    else if (size.lte(remaining)) {
      moved.push(b);
      remaining = remaining.minus(size);
    } else {
      moved.push({ from: b.from, to: b.from.plus(remaining).minus(1) });
      kept.push({ from: b.from.plus(remaining), to: b.to });
      remaining = toDecimal(0);
    }
  }
  return [moved, kept];
}

export function dropHighest(blocks: Block[], quantity: Decimal) {
  blocks.sort((a, b) => a.from.comparedTo(b.from));
  let remaining = quantity;
  while (remaining.gt(0) && blocks.length) {
    const last = blocks[blocks.length - 1];
    const size = last.to.minus(last.from).plus(1);
    if (size.lte(remaining)) {
      blocks.pop();
      remaining = remaining.minus(size);
    } else {
      last.to = last.to.minus(remaining);
      remaining = toDecimal(0);
    }
  }
}

export const ZERO = toDecimal(0);

export function positive(value: string, name: string): Decimal {
  const d = toDecimal(value);
  if (!d.gt(0)) throw new LedgerRuleError('invalid', `${name} must be more than 0`);
  return d;
}

export function assertActive(h: ShareholdingState) {
  if (h.status !== 'active') {
    throw new LedgerRuleError('conflict', `shareholding ${h.certificateNumber} is ${h.status}`);
  }
}

export function assertLegends(state: LedgerState, ids: string[]) {
  for (const id of ids) {
    const l = state.legends.get(id);
    if (!l || l.deleted) throw new LedgerRuleError('notFound', `legend ${id} does not exist`);
  }
}

export const security = (state: LedgerState, id: string) => found(state.securities, id, 'class');
export const legend = (state: LedgerState, id: string) => found(state.legends, id, 'legend');

/** A legend that is there to change: a deleted one is gone, as for its routes (404). */
export function liveLegend(state: LedgerState, id: string) {
  const l = legend(state, id);
  if (l.deleted) throw new LedgerRuleError('notFound', `legend ${l.name} was deleted`);
  return l;
}
export const shareholding = (state: LedgerState, id: string) =>
  found(state.shareholdings, id, 'shareholding');

export function found<T>(map: Map<string, T>, id: string, what: string): T {
  const value = map.get(id);
  if (!value) throw new LedgerRuleError('notFound', `no ${what} ${id}`);
  return value;
}
