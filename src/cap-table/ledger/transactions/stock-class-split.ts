import { Type, type Static } from '@sinclair/typebox';
import { DateText, DecimalText, Id } from '../payload-fields';
import { applySplit, toDecimal, toDecimalString } from '../../../../libs/cap-math';
import { previousAttributes } from '../../../events';
import { LedgerRuleError, LedgerState, SecurityState, ShareholdingState } from '../ledger-state';
import { assertFits, liveSecurity, security } from '../rules';
import type { TransactionPayloads } from '../transaction-types';
import type { TransactionDefinition } from './definition';
import { stockClassSplitOcf } from './stock-class-split.ocf';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const stockClassSplitPayload = Type.Object({
  securityId: Id(),
  numerator: DecimalText({
    description: 'New shares for `denominator` old ones: 2/1 doubles, 1/10 is a reverse split.',
  }),
  denominator: DecimalText(),
  fractional: Type.Boolean({
    description: 'Fractional shares are kept (an LLC’s units), else each holding is rounded down.',
  }),
  date: DateText(),
  // What the split does is the reducer's, this is the record of what it started from (the OCF
  // export issues them with it).
  before: Type.Array(Type.Object({ shareholdingId: Id(), quantity: DecimalText() }), {
    description: 'The class’s active shareholdings and what each held before the split.',
  }),
});

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_STOCK_CLASS_SPLIT: Static<typeof stockClassSplitPayload>;
  }
}

type Split = TransactionPayloads['TX_STOCK_CLASS_SPLIT'];

/** A split as a caller asks for it (`POST .../security/:security/split`). */
export interface SplitInput {
  securityId: string;
  numerator: string;
  denominator: string;
  /** Default today. */
  date?: string;
}

/** The class's active shareholdings, in the order of their share numbers. */
export function activeHoldingsOf(state: LedgerState, securityId: string): ShareholdingState[] {
  const first = (h: ShareholdingState) => state.blocks.get(h.id)?.[0]?.from ?? toDecimal(0);
  return [...state.shareholdings.values()]
    .filter((h) => h.securityId === securityId && h.status === 'active')
    .sort(
      (a, b) =>
        first(a).comparedTo(first(b)) || a.certificateNumber.localeCompare(b.certificateNumber),
    );
}

const scaled = (quantity: string | ReturnType<typeof toDecimal>, p: Split) =>
  applySplit(quantity, p.numerator, p.denominator, { fractional: p.fractional }).quantity;

/** A class's price per share after the split: the same money buys numerator/denominator times the shares. */
const perShare = (price: string | null, p: Split) =>
  price === null
    ? null
    : toDecimalString(toDecimal(price).times(p.denominator).div(p.numerator).toDecimalPlaces(10));

/**
 * OCF TX_STOCK_CLASS_SPLIT: a forward (2 for 1: 2/1) or reverse (1 for 10: 1/10) split of a
 * class. Every active shareholding is multiplied by the ratio, each rounded down to whole shares
 * unless fractional shares are allowed (the fraction is cashed out; a holding left with none is
 * voided); the authorized shares likewise, the class's original issue price and conversion
 * ratio inversely, so preferences and as-converted counts stay. A shareholding keeps the price
 * it was issued at (what was paid is history; split-adjusted prices are derived). The class is numbered anew from 1 in the order its
 * shares held. Shares reserved for plans and outstanding warrants are not split: such a class is
 * refused.
 */
export const stockClassSplit: TransactionDefinition<'TX_STOCK_CLASS_SPLIT'> = {
  payload: stockClassSplitPayload,
  definesRecord: false,
  ocf: stockClassSplitOcf,
  scope: (p) => ({ securities: [p.securityId], holdingsOfClass: p.securityId }),
  validate(state, p) {
    const s = liveSecurity(state, p.securityId);
    for (const [field, value] of [
      ['numerator', p.numerator],
      ['denominator', p.denominator],
    ] as const) {
      if (!toDecimal(value).gt(0)) {
        throw new LedgerRuleError('invalid', `${field} must be more than 0`, field);
      }
    }
    if (toDecimal(p.numerator).eq(p.denominator)) {
      throw new LedgerRuleError('invalid', 'a split ratio of 1 changes nothing', 'numerator');
    }
    // Dated before a holding it splits was issued, an as-of view between the two would split
    // shares that did not exist yet.
    const latest = activeHoldingsOf(state, s.id).reduce(
      (d, h) => (h.issueDate > d ? h.issueDate : d),
      '',
    );
    if (p.date < latest) {
      throw new LedgerRuleError(
        'invalid',
        `date must not be before the issue date ${latest} of a shareholding of the class`,
        'date',
      );
    }
    if (!s.reserved.isZero()) {
      throw new LedgerRuleError(
        'conflict',
        `class ${s.name} has ${toDecimalString(s.reserved)} shares reserved for plans: a split would leave the plans' grants unadjusted`,
      );
    }
    const rights = [...state.holdings.values()].filter(
      (h) => h.securityId === s.id && h.status === 'active',
    );
    if (rights.length) {
      throw new LedgerRuleError(
        'conflict',
        `class ${s.name} has ${rights.length} outstanding warrant(s) or grant(s): a split would leave them unadjusted`,
      );
    }
    const authorized = scaled(s.authorized, p);
    if (authorized.isZero()) {
      throw new LedgerRuleError(
        'invalid',
        `class ${s.name} would have no authorized shares left`,
        'denominator',
      );
    }
    assertFits(
      authorized,
      `numerator would take the authorized shares of class ${s.name}`,
      'numerator',
    );
    // A reverse split raises the class's prices per share as it lowers its shares.
    for (const [name, price] of [
      ['originalIssuePrice', s.originalIssuePrice],
      ['conversionRatio', s.conversionRatio],
    ] as const) {
      if (price === null) continue;
      assertFits(
        toDecimal(perShare(price, p)!),
        `denominator would take the ${name} of class ${s.name}`,
        'denominator',
      );
    }
  },
  command: {
    scope: (input: SplitInput) => ({
      securities: [input.securityId],
      holdingsOfClass: input.securityId,
    }),
    prepare(state, input: SplitInput, context) {
      const date = input.date ?? context.today;
      return {
        effectiveDate: date,
        payload: {
          securityId: input.securityId,
          numerator: toDecimalString(toDecimal(input.numerator)),
          denominator: toDecimalString(toDecimal(input.denominator)),
          fractional: context.organization.type === 'llc',
          date,
          before: activeHoldingsOf(state, input.securityId).map((h) => ({
            shareholdingId: h.id,
            quantity: toDecimalString(h.quantity),
          })),
        },
      };
    },
  },
  event: {
    type: 'security.split',
    public: false,
    // The class and the ratio; the holders' new quantities are in their shareholdings.
    audience: 'canViewOrganization',
    before: (p) => [{ kind: 'securities', id: p.securityId }],
    async describe(facts) {
      const p = facts.payload;
      const before = facts.before('securities', p.securityId) as Record<string, unknown>;
      const after = (await facts.view('securities', p.securityId)) as Record<string, unknown>;
      return {
        object: {
          ...after,
          split: { numerator: p.numerator, denominator: p.denominator, date: p.date },
        },
        previous: previousAttributes(before, after),
        description: `class ${String(before.name)}: split ${p.numerator} for ${p.denominator} (${String(before.issuedShares)} -> ${String(after.issuedShares)} issued shares, ${p.before.length} shareholdings)`,
      };
    },
  },
  apply(state, p) {
    const s = security(state, p.securityId);
    splitClass(state, s, p);
  },
  // Splits logged before the record of what they started from carry none.
  upgrade: (p) => ({ ...p, before: p.before ?? [] }),
};

function splitClass(state: LedgerState, s: SecurityState, p: Split) {
  let next = toDecimal(1);
  let issued = toDecimal(0);
  for (const h of activeHoldingsOf(state, s.id)) {
    const quantity = scaled(h.quantity, p);
    if (quantity.isZero()) {
      h.status = 'voided';
      state.putBlocks(h.id, []);
    } else {
      h.quantity = quantity;
      state.putBlocks(h.id, [{ from: next, to: next.plus(quantity).minus(1) }]);
      next = next.plus(quantity);
      issued = issued.plus(quantity);
    }
    state.put('shareholdings', h);
  }
  s.authorized = scaled(s.authorized, p);
  s.issued = issued;
  s.nextShareNumber = next;
  s.originalIssuePrice = perShare(s.originalIssuePrice, p);
  s.conversionRatio = perShare(s.conversionRatio, p)!;
  state.put('securities', s);
}
