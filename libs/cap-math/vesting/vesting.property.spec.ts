import fc from 'fast-check';
import { D } from '../decimal';
import { addDays, addMonths, daysInMonth, parseDate } from '../dates';
import Decimal from 'decimal.js';
import { accelerate } from './acceleration';
import { allocateTranches } from './allocation';
import { projectVesting } from './project';
import {
  ALLOCATION_TYPES,
  AllocationType,
  STANDARD_VESTING_SCHEDULE,
  VESTING_DAY_OF_MONTH_VALUES,
  VestingSchedule,
} from './schedule';
import { periodEndDates } from './vesting-dates';
import { unvestedAsOf, vestedAsOf } from './vested';
import { vestingEvents } from './vesting-events';

const startDate = fc
  .integer({ min: 7305, max: 47482 }) // 1990-01-01 .. 2099-12-31 as days since 1970
  .map((n) => addDays('1970-01-01', n));

const schedule: fc.Arbitrary<VestingSchedule> = fc
  .record({
    totalPeriods: fc.integer({ min: 1, max: 120 }),
    periodLength: fc.integer({ min: 1, max: 12 }),
    periodType: fc.constantFrom('days' as const, 'months' as const, 'years' as const),
    cliffFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    allocationType: fc.constantFrom(...ALLOCATION_TYPES),
    vestingDayOfMonth: fc.constantFrom(...VESTING_DAY_OF_MONTH_VALUES),
  })
  .map(({ cliffFraction, vestingDayOfMonth, ...rest }) => ({
    ...rest,
    cliffPeriods: Math.floor(cliffFraction * rest.totalPeriods),
    vestingDayOfMonth: rest.periodType === 'days' ? undefined : vestingDayOfMonth,
  }));

// Whole quantities for every type; FRACTIONAL also gets up to 6 decimal places.
const quantityFor = (type: AllocationType) =>
  fc
    .tuple(
      fc.bigInt({ min: 0n, max: 10n ** 12n }),
      fc.integer({ min: 0, max: type === 'FRACTIONAL' ? 6 : 0 }),
    )
    .map(([units, scale]) => new D(units.toString()).div(new D(10).pow(scale)).toFixed());

const grant = schedule.chain((s) =>
  fc.record({
    schedule: fc.constant(s),
    quantity: quantityFor(s.allocationType),
    start: startDate,
  }),
);

describe('vesting properties', () => {
  it('tranches add up to the quantity for every allocation type', () => {
    fc.assert(
      fc.property(grant, ({ schedule: s, quantity, start }) => {
        const events = vestingEvents(s, quantity, start);
        const total = events.reduce((acc, e) => acc.plus(e.amount), new D(0));
        expect(total.toFixed()).toBe(new D(quantity).toFixed());
        if (events.length > 0) {
          expect(events[events.length - 1].cumulative.toFixed()).toBe(new D(quantity).toFixed());
        }
      }),
    );
  });

  it('cumulative never decreases and every amount is positive', () => {
    fc.assert(
      fc.property(grant, ({ schedule: s, quantity, start }) => {
        let previous = new D(0);
        for (const event of vestingEvents(s, quantity, start)) {
          expect(event.amount.greaterThan(0)).toBe(true);
          expect(event.cumulative.greaterThanOrEqualTo(previous)).toBe(true);
          expect(event.cumulative.minus(previous).equals(event.amount)).toBe(true);
          previous = event.cumulative;
        }
      }),
    );
  });

  it('nothing vests before the cliff date', () => {
    fc.assert(
      fc.property(
        grant.filter((g) => g.schedule.cliffPeriods > 0),
        ({ schedule: s, quantity, start }) => {
          const cliffDate = periodEndDates(s, start)[s.cliffPeriods - 1];
          const events = vestingEvents(s, quantity, start);
          expect(events.every((e) => e.date >= cliffDate)).toBe(true);
          expect(vestedAsOf(events, addDays(cliffDate, -1)).isZero()).toBe(true);
          expect(unvestedAsOf(events, addDays(cliffDate, -1)).toFixed()).toBe(
            new D(quantity).toFixed(),
          );
        },
      ),
    );
  });

  it('whole-share allocation types give whole numbers for whole quantities', () => {
    fc.assert(
      fc.property(
        grant.filter((g) => g.schedule.allocationType !== 'FRACTIONAL'),
        ({ schedule: s, quantity, start }) => {
          for (const event of vestingEvents(s, quantity, start)) {
            expect(event.amount.isInteger()).toBe(true);
          }
        },
      ),
    );
  });

  it('event dates strictly increase', () => {
    fc.assert(
      fc.property(grant, ({ schedule: s, quantity, start }) => {
        const dates = vestingEvents(s, quantity, start).map((e) => e.date);
        for (let i = 1; i < dates.length; i++) {
          expect(dates[i] > dates[i - 1]).toBe(true);
        }
        const allDates = periodEndDates(s, start);
        expect(allDates[0] > start).toBe(true);
      }),
    );
  });

  it('acceleration keeps the total, vests at least as much as before at every date, and keeps whole shares', () => {
    fc.assert(
      fc.property(
        grant,
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: -100, max: 5000 }),
        ({ schedule: s, quantity, start }, percent, offset) => {
          const fractional = s.allocationType === 'FRACTIONAL';
          const events = vestingEvents(s, quantity, start);
          const trigger = addDays(start, offset);
          const accelerated = accelerate(events, { percent, fractional }, trigger);
          const total = accelerated.reduce((acc, e) => acc.plus(e.amount), new D(0));
          expect(total.toFixed()).toBe(new D(quantity).toFixed());
          for (const date of [trigger, ...events.map((e) => e.date)]) {
            expect(
              vestedAsOf(accelerated, date).greaterThanOrEqualTo(vestedAsOf(events, date)),
            ).toBe(true);
          }
          for (let i = 1; i < accelerated.length; i++) {
            expect(accelerated[i].date > accelerated[i - 1].date).toBe(true);
          }
          if (!fractional) {
            expect(accelerated.every((e) => e.amount.isInteger())).toBe(true);
          }
        },
      ),
    );
  });

  it('whole-share tranches match their definitions computed in Decimal', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.integer({ min: 1, max: 200 }),
        (units, n) => {
          const q = new D(units.toString());
          const cumulative = (type: AllocationType) => {
            let total = new D(0);
            return allocateTranches(q, n, type).map((a) => (total = total.plus(a)).toFixed());
          };
          const exactCumulative = (k: number) => q.times(k).div(n);
          const ks = Array.from({ length: n }, (_, i) => i + 1);
          expect(cumulative('CUMULATIVE_ROUNDING')).toEqual(
            ks.map((k) => exactCumulative(k).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed()),
          );
          expect(cumulative('CUMULATIVE_ROUND_DOWN')).toEqual(
            ks.map((k) => exactCumulative(k).floor().toFixed()),
          );
          const base = q.divToInt(n);
          const remainder = q.minus(base.times(n)).toNumber();
          const front = allocateTranches(q, n, 'FRONT_LOADED').map((a) => a.toFixed());
          expect(front).toEqual(ks.map((k) => base.plus(k <= remainder ? 1 : 0).toFixed()));
          const back = allocateTranches(q, n, 'BACK_LOADED').map((a) => a.toFixed());
          expect(back).toEqual([...front].reverse());
          const single = allocateTranches(q, n, 'FRONT_LOADED_TO_SINGLE_TRANCHE');
          expect(single[0].toFixed()).toBe(base.plus(remainder).toFixed());
          const singleBack = allocateTranches(q, n, 'BACK_LOADED_TO_SINGLE_TRANCHE');
          expect(singleBack.map((a) => a.toFixed())).toEqual(
            single.map((a) => a.toFixed()).reverse(),
          );
        },
      ),
    );
  });
});

describe('vesting properties over time and for the standard schedule', () => {
  /** A date at every event, the day before each, the start and well after the end. */
  const probeDates = (start: string, events: { date: string }[]) =>
    [start, ...events.flatMap((e) => [addDays(e.date, -1), e.date]), addDays(start, 100_000)]
      .filter((d) => d <= '9999-12-31')
      .sort();

  it('cumulative vesting never decreases over time and ends at the quantity', () => {
    fc.assert(
      fc.property(grant, ({ schedule: s, quantity, start }) => {
        const events = vestingEvents(s, quantity, start);
        let previous = new D(0);
        for (const date of probeDates(start, events)) {
          const vested = vestedAsOf(events, date);
          expect(vested.greaterThanOrEqualTo(previous)).toBe(true);
          expect(vested.plus(unvestedAsOf(events, date)).toFixed()).toBe(new D(quantity).toFixed());
          previous = vested;
        }
        expect(vestedAsOf(events, start).isZero()).toBe(true);
        expect(previous.toFixed()).toBe(new D(quantity).toFixed());
      }),
    );
  });

  it('allocated tranches add up to the quantity for every type and tranche count', () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...ALLOCATION_TYPES)
          .chain((type) =>
            fc.tuple(fc.constant(type), quantityFor(type), fc.integer({ min: 1, max: 500 })),
          ),
        ([type, quantity, tranches]) => {
          const amounts = allocateTranches(quantity, tranches, type);
          expect(amounts).toHaveLength(tranches);
          expect(amounts.every((a) => a.greaterThanOrEqualTo(0))).toBe(true);
          const total = amounts.reduce((acc, a) => acc.plus(a), new D(0));
          expect(total.toFixed()).toBe(new D(quantity).toFixed());
        },
      ),
    );
  });

  it('the cliff event carries exactly the tranches of the cliff periods, on the cliff date', () => {
    fc.assert(
      fc.property(
        grant.filter((g) => g.schedule.cliffPeriods > 0),
        ({ schedule: s, quantity, start }) => {
          const tranches = allocateTranches(quantity, s.totalPeriods, s.allocationType);
          const atCliff = tranches
            .slice(0, s.cliffPeriods)
            .reduce((acc, a) => acc.plus(a), new D(0));
          const cliffDate = periodEndDates(s, start)[s.cliffPeriods - 1];
          const events = vestingEvents(s, quantity, start);
          expect(vestedAsOf(events, cliffDate).toFixed()).toBe(atCliff.toFixed());
          if (!atCliff.isZero()) {
            expect(events[0].date).toBe(cliffDate);
            expect(events[0].amount.toFixed()).toBe(atCliff.toFixed());
          }
        },
      ),
    );
  });

  it('the standard schedule vests 25% at month 12 and 1/48 on each of months 13 to 48', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n }).map((n) => (n * 48n).toString()),
        startDate,
        (quantity, start) => {
          const q = new D(quantity);
          const events = vestingEvents(STANDARD_VESTING_SCHEDULE, quantity, start);
          expect(events).toHaveLength(37);
          expect(events[0].date).toBe(addMonths(start, 12));
          expect(events[0].amount.toFixed()).toBe(q.div(4).toFixed());
          events.slice(1).forEach((e, i) => {
            expect(e.date).toBe(addMonths(start, 13 + i));
            expect(e.amount.toFixed()).toBe(q.div(48).toFixed());
          });
          expect(vestedAsOf(events, addDays(addMonths(start, 12), -1)).isZero()).toBe(true);
          expect(events[36].date).toBe(addMonths(start, 48));
          expect(events[36].cumulative.toFixed()).toBe(quantity);
        },
      ),
    );
  });

  it('the standard schedule keeps any whole quantity within half a share of k/48 at every month from 12', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), startDate, (units, start) => {
        const q = new D(units.toString());
        const events = vestingEvents(STANDARD_VESTING_SCHEDULE, q, start);
        for (let k = 12; k <= 48; k++) {
          const exact = q.times(k).div(48);
          const vested = vestedAsOf(events, addMonths(start, k));
          expect(vested.isInteger()).toBe(true);
          expect(vested.minus(exact).abs().lessThanOrEqualTo(0.5)).toBe(true);
        }
        // 25% at the cliff, rounded half up.
        expect(vestedAsOf(events, addMonths(start, 12)).toFixed()).toBe(
          q.div(4).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(),
        );
      }),
    );
  });

  it('month and year periods land on the vesting day of the month, or the last day of a shorter month', () => {
    fc.assert(
      fc.property(
        grant.filter((g) => g.schedule.periodType !== 'days'),
        ({ schedule: s, start }) => {
          const day = s.vestingDayOfMonth ?? 'VESTING_START_DAY_OR_LAST_DAY_OF_MONTH';
          const wanted =
            day === 'VESTING_START_DAY_OR_LAST_DAY_OF_MONTH'
              ? parseDate(start).day
              : Number(day.slice(0, 2));
          const months = s.periodType === 'years' ? 12 * s.periodLength : s.periodLength;
          periodEndDates(s, start).forEach((date, i) => {
            const d = parseDate(date);
            expect(d.day).toBe(Math.min(wanted, daysInMonth(d.year, d.month)));
            const startMonth = parseDate(start);
            expect(d.year * 12 + d.month - (startMonth.year * 12 + startMonth.month)).toBe(
              months * (i + 1),
            );
          });
        },
      ),
    );
  });

  it('the projection prints the same events as decimal strings that add up to the quantity', () => {
    fc.assert(
      fc.property(grant, ({ schedule: s, quantity, start }) => {
        const { events, accelerationDate } = projectVesting({
          schedule: s,
          quantity,
          vestingStartDate: start,
        });
        expect(accelerationDate).toBeNull();
        const raw = vestingEvents(s, quantity, start);
        expect(events).toEqual(
          raw.map((e) => ({
            date: e.date,
            amount: e.amount.toFixed(),
            cumulative: e.cumulative.toFixed(),
          })),
        );
        let total = new D(0);
        for (const e of events) {
          expect(e.amount).toMatch(/^\d+(\.\d+)?$/);
          total = total.plus(e.amount);
          expect(e.cumulative).toBe(total.toFixed());
        }
        expect(total.toFixed()).toBe(new D(quantity).toFixed());
      }),
    );
  });
});
