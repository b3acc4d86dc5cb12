import Decimal from 'decimal.js';
import { D } from '../decimal';
import { fromUnits, unitsText } from './waterfall-cents';
import { Holders, quantity, rescale, Units } from './waterfall-input';
import { ModelOption } from './waterfall-model-types';
import { Payoffs } from './waterfall-payoffs';
import { WaterfallOption } from './waterfall-types';

export interface OptionPayoffs {
  options: ModelOption[];
  /** Option shares are in units of 10^-scale. */
  scale: number;
  /** The shares of all the options. */
  shares: Decimal;
}

/** Options: one instrument per exercise price, whatever its number of grants. */
export function addOptions(
  optionsIn: readonly WaterfallOption[],
  holders: Holders,
  payoffs: Payoffs,
): OptionPayoffs {
  let scale = 0;
  const strikeGroups = new Map<string, { strike: Units; keys: string[]; members: number[] }>();
  const parsed = optionsIn.map((o, i) => {
    const field = (f: string) => ({
      path: `options[${i}].${f}`,
      label: `${f} of option "${o.key}"`,
    });
    const holderIndex = holders.index(`options[${i}].holderKey`, o.holderKey);
    const shares = quantity(field('shares'), o.shares);
    const strike = quantity(field('exercisePrice'), o.exercisePrice);
    if (shares.scale > scale) scale = shares.scale;
    const text = unitsText(strike.units, strike.scale);
    let group = strikeGroups.get(text);
    if (!group) {
      group = { strike, keys: [], members: [] };
      strikeGroups.set(text, group);
    }
    group.members.push(i);
    if (shares.units > 0n) group.keys.push(o.key);
    return { key: o.key, holderIndex, shares };
  });
  const options: ModelOption[] = parsed.map((o) => ({
    key: o.key,
    holderIndex: o.holderIndex,
    instrument: -1,
    units: rescale(o.shares, scale),
  }));
  let allUnits = 0n;
  for (const group of strikeGroups.values()) {
    let units = 0n;
    for (const m of group.members) units += options[m].units;
    allUnits += units;
    const weight = fromUnits(units, scale);
    const text = unitsText(group.strike.units, group.strike.scale);
    const strike = new D(text);
    const instrument = payoffs.add({ kind: 'options', weight, strike });
    for (const m of group.members) options[m].instrument = instrument;
    if (units > 0n) {
      payoffs.slopeChange({
        p: strike,
        instrument,
        delta: weight,
        event: {
          kind: 'options-in-the-money',
          description: `Options with an exercise price of ${text} come into the money`,
          optionKeys: group.keys,
        },
      });
    }
  }
  return { options, scale, shares: fromUnits(allUnits, scale) };
}
