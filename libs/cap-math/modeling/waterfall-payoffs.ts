import Decimal from 'decimal.js';
import { D, toDecimalString } from '../decimal';
import { Instrument, Kink, Segment, Tier, WaterfallModel } from './waterfall-model-types';
import { WaterfallBreakpointEvent } from './waterfall-types';

const ZERO = new D(0);

/** A change of one instrument's slope at p (p = 0: its slope from the start). */
export interface SlopeChange {
  p: Decimal;
  instrument: number;
  delta: Decimal;
  event?: WaterfallBreakpointEvent;
}

/** An amount in an event's description: to the millionth, trailing zeros dropped. */
export function money(value: Decimal): string {
  return toDecimalString(value.toDecimalPlaces(6, Decimal.ROUND_HALF_UP));
}

/**
 * The payoffs collected from the classes, options and convertibles: the instruments, where
 * their slopes change and the preferences paid by seniority. `shape` then lays out the total
 * payout as a function of p.
 */
export class Payoffs {
  readonly instruments: Instrument[] = [];
  private readonly changes: SlopeChange[] = [];
  private readonly tiers = new Map<
    number,
    { members: number[]; events: WaterfallBreakpointEvent[] }
  >();

  /** Adds an instrument (no preference, cap or conversion unless given); its index. */
  add(instrument: Partial<Instrument> & Pick<Instrument, 'kind' | 'weight'>): number {
    this.instruments.push({
      preference: ZERO,
      headroom: null,
      capAt: null,
      convertAbove: null,
      strike: ZERO,
      ...instrument,
    });
    return this.instruments.length - 1;
  }

  slopeChange(change: SlopeChange): void {
    this.changes.push(change);
  }

  /** The instrument's preference is paid with the others of its seniority. */
  preference(seniority: number, instrument: number, event: WaterfallBreakpointEvent): void {
    const tier = this.tiers.get(seniority) ?? { members: [], events: [] };
    tier.members.push(instrument);
    tier.events.push(event);
    this.tiers.set(seniority, tier);
  }

  shape(): Pick<
    WaterfallModel,
    'tiers' | 'totalPreference' | 'initialSlopes' | 'kinks' | 'segments'
  > {
    const tiers: Tier[] = [...this.tiers.entries()]
      .sort((a, b) => b[0] - a[0])
      .map(([seniority, t]) => ({
        seniority,
        members: t.members,
        events: t.events,
        total: t.members.reduce((acc, m) => acc.plus(this.instruments[m].preference), ZERO),
      }));
    const totalPreference = tiers.reduce((acc, t) => acc.plus(t.total), ZERO);
    const { initialSlopes, kinks } = groupKinks(this.instruments.length, this.changes);
    const segments = buildSegments(totalPreference, initialSlopes, kinks);
    return { tiers, totalPreference, initialSlopes, kinks, segments };
  }
}

/** Sorts the slope changes by p; those at p = 0 make the initial slopes. */
function groupKinks(
  count: number,
  raw: SlopeChange[],
): { initialSlopes: Decimal[]; kinks: Kink[] } {
  const initialSlopes: Decimal[] = new Array(count).fill(ZERO);
  const sorted = raw
    .map((k, order) => ({ k, order }))
    .sort((a, b) => a.k.p.comparedTo(b.k.p) || a.order - b.order)
    .map((x) => x.k);
  const kinks: Kink[] = [];
  for (const k of sorted) {
    if (k.p.isZero()) {
      initialSlopes[k.instrument] = initialSlopes[k.instrument].plus(k.delta);
      continue;
    }
    let last = kinks[kinks.length - 1];
    if (!last || !last.p.equals(k.p)) {
      last = { p: k.p, changes: [], events: [] };
      kinks.push(last);
    }
    last.changes.push({ instrument: k.instrument, delta: k.delta });
    if (k.event) last.events.push(k.event);
  }
  return { initialSlopes, kinks };
}

function buildSegments(totalPreference: Decimal, initial: Decimal[], kinks: Kink[]): Segment[] {
  let slope = initial.reduce((acc, s) => acc.plus(s), ZERO);
  const segments: Segment[] = [{ p: ZERO, total: totalPreference, slope }];
  for (const kink of kinks) {
    const previous = segments[segments.length - 1];
    const total = previous.total.plus(previous.slope.times(kink.p.minus(previous.p)));
    slope = kink.changes.reduce((acc, c) => acc.plus(c.delta), slope);
    segments.push({ p: kink.p, total, slope });
  }
  return segments;
}
