import { invalid } from './input-field';
import { Holders, quantity, rescale } from './waterfall-input';
import { ModelHolding } from './waterfall-model-types';
import { WaterfallClass, WaterfallHolding } from './waterfall-types';

/** The holdings as exact integers at the largest scale any of them uses, summed per class. */
export interface HeldShares {
  holdings: ModelHolding[];
  /** Shares are in units of 10^-scale. */
  scale: number;
  /** By class: its shares, in units. */
  classUnits: bigint[];
  /** By class: the indices of its holdings. */
  classHoldings: number[][];
}

export function readHoldings(
  holdingsIn: readonly WaterfallHolding[],
  classesIn: readonly WaterfallClass[],
  holders: Holders,
): HeldShares {
  const classIndexOf = new Map<string, number>();
  classesIn.forEach((c, i) => classIndexOf.set(c.key, i));
  let scale = 0;
  const parsed = holdingsIn.map((h, i) => {
    const holderIndex = holders.index(`holdings[${i}].holderKey`, h.holderKey);
    const classIndex = classIndexOf.get(h.classKey);
    if (classIndex === undefined) {
      throw invalid(
        `holdings[${i}].classKey`,
        (label) => `${label}: unknown class "${String(h.classKey)}"`,
      );
    }
    const shares = quantity(`holdings[${i}].shares`, h.shares);
    if (shares.scale > scale) scale = shares.scale;
    return { holderIndex, classIndex, shares };
  });
  const classUnits = classesIn.map(() => 0n);
  const classHoldings: number[][] = classesIn.map(() => []);
  const holdings: ModelHolding[] = parsed.map((h, i) => {
    const units = rescale(h.shares, scale);
    classUnits[h.classIndex] += units;
    classHoldings[h.classIndex].push(i);
    return { holderIndex: h.holderIndex, classIndex: h.classIndex, units };
  });
  return { holdings, scale, classUnits, classHoldings };
}
