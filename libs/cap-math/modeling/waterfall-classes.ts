import Decimal from 'decimal.js';
import { D, toDecimalString } from '../decimal';
import { nonNegative, positive } from '../validate';
import { InputField, invalid, named } from './input-field';
import { fromUnits } from './waterfall-cents';
import { HeldShares } from './waterfall-holdings';
import { seniorityOf } from './waterfall-input';
import { ModelClass } from './waterfall-model-types';
import { money, Payoffs } from './waterfall-payoffs';
import { WaterfallClass } from './waterfall-types';

const ZERO = new D(0);

export interface ClassPayoffs {
  classes: ModelClass[];
  /** The shares of every class as converted to common. */
  capitalStock: Decimal;
  /** The highest seniority of a preferred class (undefined without one). */
  mostSeniorPreferred: number | undefined;
}

/** One instrument per class: common shares, or a preferred class's payoff by its terms. */
export function addClasses(
  classesIn: readonly WaterfallClass[],
  held: HeldShares,
  payoffs: Payoffs,
): ClassPayoffs {
  let mostSeniorPreferred: number | undefined;
  let capitalStock = ZERO;
  const classes = classesIn.map((c, i): ModelClass => {
    const field = (f: string): InputField => ({
      path: `classes[${i}].${f}`,
      label: `${f} of class "${c.key}"`,
    });
    if (c.kind !== 'common' && c.kind !== 'preferred') {
      throw invalid(field('kind'), (label) => `${label} must be "common" or "preferred"`);
    }
    const ratio =
      c.conversionRatio === undefined
        ? new D(1)
        : named(field('conversionRatio'), (label) => positive(label, c.conversionRatio!));
    const shares = fromUnits(held.classUnits[i], held.scale);
    const weight = shares.times(ratio);
    capitalStock = capitalStock.plus(weight);
    const modelClass = (preferred: boolean, instrument: number): ModelClass => ({
      key: c.key,
      name: c.name ?? c.key,
      preferred,
      instrument,
      units: held.classUnits[i],
      holdings: held.classHoldings[i],
    });
    if (c.kind === 'common') {
      const instrument = payoffs.add({ kind: 'common', weight });
      if (!weight.isZero()) payoffs.slopeChange({ p: ZERO, instrument, delta: weight });
      return modelClass(false, instrument);
    }
    const terms = preferredTerms(c, field);
    mostSeniorPreferred = Math.max(mostSeniorPreferred ?? terms.seniority, terms.seniority);
    const instrument = addPreferred(c, { shares, ratio, weight, terms }, payoffs);
    return modelClass(true, instrument);
  });
  return { classes, capitalStock, mostSeniorPreferred };
}

interface PreferredTerms {
  seniority: number;
  participating: boolean;
  /** The preference per share: multiple × original issue price. */
  perShare: Decimal;
  /** Capped participating: the most a share receives, cap multiple × original issue price. */
  capPerShare: Decimal | null;
}

function preferredTerms(c: WaterfallClass, field: (f: string) => InputField): PreferredTerms {
  const seniority = seniorityOf(field('seniority'), c.seniority, 0);
  if (c.participating !== undefined && typeof c.participating !== 'boolean') {
    throw invalid(field('participating'), (label) => `${label} must be true or false`);
  }
  if (c.originalIssuePrice === undefined) {
    throw invalid(
      field('originalIssuePrice'),
      (label) => `${label} is required for a preferred class`,
    );
  }
  const issuePrice = named(field('originalIssuePrice'), (label) =>
    nonNegative(label, c.originalIssuePrice!),
  );
  const multiple = named(field('liquidationPreferenceMultiple'), (label) =>
    nonNegative(label, c.liquidationPreferenceMultiple ?? 1),
  );
  const participating = c.participating === true;
  let capPerShare: Decimal | null = null;
  if (participating && c.participationCapMultiple !== undefined) {
    const capMultiple = named(field('participationCapMultiple'), (label) =>
      positive(label, c.participationCapMultiple!),
    );
    if (capMultiple.lessThan(multiple)) {
      throw invalid(
        field('participationCapMultiple'),
        (label) =>
          `${label} (${toDecimalString(capMultiple)}) must be at least ` +
          `its liquidationPreferenceMultiple (${toDecimalString(multiple)}): the cap includes the preference`,
      );
    }
    capPerShare = capMultiple.times(issuePrice);
  }
  return { seniority, participating, perShare: multiple.times(issuePrice), capPerShare };
}

interface PreferredClass {
  shares: Decimal;
  ratio: Decimal;
  /** Its shares as converted to common. */
  weight: Decimal;
  terms: PreferredTerms;
}

/** The class's instrument: non-participating, participating, or participating with a cap. */
function addPreferred(c: WaterfallClass, pc: PreferredClass, payoffs: Payoffs): number {
  const { ratio, weight, terms } = pc;
  const name = c.name ?? c.key;
  const preference = terms.perShare.times(pc.shares);
  let instrument: number;
  if (!terms.participating) {
    // Converting pays more once w·p > P, i.e. p > preference per share / ratio.
    const convertAbove = terms.perShare.div(ratio);
    instrument = payoffs.add({ kind: 'fixed-or-convert', weight, preference, convertAbove });
    if (!weight.isZero()) {
      payoffs.slopeChange({
        p: convertAbove,
        instrument,
        delta: weight,
        event: {
          kind: 'conversion',
          classKey: c.key,
          description: `${name} converts to common: its as-converted value passes its preference of ${money(terms.perShare)} per share`,
        },
      });
    }
  } else if (terms.capPerShare === null) {
    instrument = payoffs.add({ kind: 'participating', weight, preference });
    if (!weight.isZero()) payoffs.slopeChange({ p: ZERO, instrument, delta: weight });
  } else {
    instrument = addCappedParticipating(c, pc, preference, payoffs);
  }
  if (!preference.isZero()) {
    payoffs.preference(terms.seniority, instrument, {
      kind: 'preference',
      classKey: c.key,
      description: `${name}: liquidation preference of ${money(preference)} paid in full`,
    });
  }
  return instrument;
}

/** Preference plus w·p until the cap is reached, then flat, then as converted. */
function addCappedParticipating(
  c: WaterfallClass,
  { shares, ratio, weight, terms }: PreferredClass,
  preference: Decimal,
  payoffs: Payoffs,
): number {
  const name = c.name ?? c.key;
  const capPerShare = terms.capPerShare!;
  const capAt = capPerShare.minus(terms.perShare).div(ratio);
  const convertAbove = capPerShare.div(ratio);
  const instrument = payoffs.add({
    kind: 'participating',
    weight,
    preference,
    headroom: capPerShare.minus(terms.perShare).times(shares),
    capAt,
    convertAbove,
  });
  if (!weight.isZero()) {
    payoffs.slopeChange({ p: ZERO, instrument, delta: weight });
    payoffs.slopeChange({
      p: capAt,
      instrument,
      delta: weight.negated(),
      event: {
        kind: 'participation-cap',
        classKey: c.key,
        description: `${name} reaches its participation cap of ${money(capPerShare)} per share`,
      },
    });
    payoffs.slopeChange({
      p: convertAbove,
      instrument,
      delta: weight,
      event: {
        kind: 'conversion',
        classKey: c.key,
        description: `${name} converts to common: its as-converted value passes its cap of ${money(capPerShare)} per share`,
      },
    });
  }
  return instrument;
}
