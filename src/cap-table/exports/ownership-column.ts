/** Decimal places of the quantity columns (numeric(38, 10)). */
const QUANTITY_SCALE = 10;
/** Percent to 4 decimals: 100 is 1,000,000 units. */
const DECIMALS = 4;
const UNIT = 10n ** BigInt(DECIMALS);
const TOTAL = 100n * UNIT;

/**
 * The `ownershipPercent` column of a streamed cap table: what cap-math's `ownershipPercentages`
 * gives (each row's share of the total, 4 decimals, Hamilton's largest-remainder method, ties to
 * the earlier row, so the column adds up to exactly 100), for rows that are never all in memory
 * at once. A first pass adds every row's quantity (`add`, in the order the rows will be
 * written); `percent(i)` then answers row `i` of the second pass. It keeps one scaled integer
 * per row and a bit of which rows got a unit of the remainder, not a Decimal and an object per
 * row as `ownershipPercentages` does (100,000 rows: a few MB instead of tens). A unit test holds
 * it to `ownershipPercentages` on random cap tables.
 */
export class OwnershipColumn {
  private readonly weights: bigint[] = [];
  private total = 0n;
  private roundedUp: Uint8Array | null = null;

  /** The next row's quantity, as decimal text (`400000`, `12.5`). */
  add(quantity: string): void {
    const w = scaled(quantity);
    this.weights.push(w);
    this.total += w;
  }

  get rows(): number {
    return this.weights.length;
  }

  /** Decides which rows get a unit of the remainder; call once every row was added. */
  finish(): this {
    const n = this.weights.length;
    this.roundedUp = new Uint8Array(n);
    if (this.total === 0n) return this;
    const remainders = this.weights.map((w) => (TOTAL * w) % this.total);
    let missing = TOTAL;
    for (const w of this.weights) missing -= (TOTAL * w) / this.total;
    const order = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) =>
      remainders[a] === remainders[b] ? a - b : remainders[a] < remainders[b] ? 1 : -1,
    );
    for (let k = 0; k < Number(missing); k++) this.roundedUp[order[k]] = 1;
    return this;
  }

  /** Row `i`'s percent with 4 decimals (`12.3456`); `0.0000` when nobody holds anything. */
  percent(i: number): string {
    if (!this.roundedUp) throw new Error('OwnershipColumn.finish() first');
    const units =
      this.total === 0n ? 0n : (TOTAL * this.weights[i]) / this.total + BigInt(this.roundedUp[i]);
    return `${units / UNIT}.${(units % UNIT).toString().padStart(DECIMALS, '0')}`;
  }
}

/** `12.5` → 125000000000n: the quantity in units of 10^-10. */
function scaled(quantity: string): bigint {
  const [whole, fraction = ''] = quantity.split('.');
  if (!/^\d+$/.test(whole) || !/^\d*$/.test(fraction) || fraction.length > QUANTITY_SCALE) {
    throw new Error(`not a quantity: "${quantity}"`);
  }
  return BigInt(whole + fraction.padEnd(QUANTITY_SCALE, '0'));
}
