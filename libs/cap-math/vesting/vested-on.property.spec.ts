import fc from 'fast-check';
import Decimal from 'decimal.js';
import { addDays } from '../dates';
import { D } from '../decimal';
import { accelerate, effectiveAccelerationDate } from './acceleration';
import { projectVesting, VestingProjectionInput } from './project';
import {
  ALLOCATION_TYPES,
  AllocationType,
  STANDARD_VESTING_SCHEDULE,
  VESTING_DAY_OF_MONTH_VALUES,
  VestingSchedule,
} from './schedule';
import { periodEndDates } from './vesting-dates';
import { vestedAsOf } from './vested';
import { vestedOn } from './vested-on';
import { vestingEvents } from './vesting-events';

/** The events of the expansion: every one built, accelerated as projectVesting does. */
function expandedEvents(input: VestingProjectionInput) {
  const { schedule } = input;
  const events = vestingEvents(schedule, input.quantity, input.vestingStartDate);
  const trigger = schedule.acceleration
    ? effectiveAccelerationDate({
        trigger: schedule.acceleration.trigger,
        changeOfControlDate: input.changeOfControlDate,
        terminationDate: input.terminationDate,
      })
    : null;
  if (!schedule.acceleration || !trigger) return events;
  return accelerate(
    events,
    {
      percent: schedule.acceleration.percent,
      fractional: schedule.allocationType === 'FRACTIONAL',
    },
    trigger,
  );
}

type Outcome = { vested: string } | { error: string };

const outcome = (compute: () => Decimal): Outcome => {
  try {
    const value = compute();
    expect(value).toBeInstanceOf(D);
    return { vested: value.toFixed() };
  } catch (err) {
    return { error: `${(err as Error).name}: ${(err as Error).message}` };
  }
};

/**
 * The closed form and the expansion agree on each date: the same decimal, or the same error.
 * The projection the API answers shows the same cumulative on that date too.
 */
function agreeOn(input: VestingProjectionInput, dates: string[]): Outcome[] {
  let events: ReturnType<typeof expandedEvents> | undefined;
  let failure: unknown;
  try {
    events = expandedEvents(input);
  } catch (err) {
    failure = err;
  }
  const shown = events ? projectVesting(input).events : [];
  return dates.map((date) => {
    const closed = outcome(() => vestedOn(input, date));
    const expected = outcome(() => {
      if (!events) throw failure;
      return vestedAsOf(events, date);
    });
    expect([date, closed]).toEqual([date, expected]);
    if ('vested' in closed) {
      const upTo = shown.filter((e) => e.date <= date);
      const cumulative = upTo.length ? upTo[upTo.length - 1].cumulative : '0';
      expect(new D(closed.vested).equals(cumulative)).toBe(true);
    }
    return closed;
  });
}

const agree = (input: VestingProjectionInput, date: string): Outcome => agreeOn(input, [date])[0];

const day = (min: number, max: number) =>
  fc.integer({ min, max }).map((n) => addDays('1970-01-01', n));
const startDate = day(7305, 47482); // 1990-01-01 .. 2099-12-31

const schedule: fc.Arbitrary<VestingSchedule> = fc
  .record({
    totalPeriods: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 1, max: 60 }) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 700 }) },
    ),
    periodLength: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 1, max: 12 }) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 400 }) },
    ),
    periodType: fc.constantFrom('days' as const, 'months' as const, 'years' as const),
    cliffFraction: fc.oneof(
      fc.constant(0),
      fc.constant(1),
      fc.double({ min: 0, max: 1, noNaN: true }),
    ),
    allocationType: fc.constantFrom(...ALLOCATION_TYPES),
    vestingDayOfMonth: fc.option(fc.constantFrom(...VESTING_DAY_OF_MONTH_VALUES), {
      nil: undefined,
    }),
    acceleration: fc.option(
      fc.record({
        trigger: fc.constantFrom('single' as const, 'double' as const),
        percent: fc.oneof(
          fc.constantFrom('0', '100', '50', '33.3333', '99.99'),
          fc.integer({ min: 0, max: 100 }).map(String),
        ),
      }),
      { nil: undefined },
    ),
  })
  .map(({ cliffFraction, vestingDayOfMonth, acceleration, ...rest }) => ({
    ...rest,
    cliffPeriods: Math.floor(cliffFraction * rest.totalPeriods),
    ...(rest.periodType === 'days' || vestingDayOfMonth === undefined ? {} : { vestingDayOfMonth }),
    ...(acceleration ? { acceleration } : {}),
  }));

// Whole quantities (small ones too, where tranches round to zero); FRACTIONAL also gets decimals.
const quantityFor = (type: AllocationType) =>
  fc
    .tuple(
      fc.oneof(fc.bigInt({ min: 0n, max: 200n }), fc.bigInt({ min: 0n, max: 10n ** 15n })),
      fc.integer({ min: 0, max: type === 'FRACTIONAL' ? 8 : 0 }),
    )
    .map(([units, scale]) => new D(units.toString()).div(new D(10).pow(scale)).toFixed());

/** A date near what matters: a period end (or the day before or after it), or anywhere around. */
const probe = (s: VestingSchedule, start: string) => {
  const ends = periodEndDates(s, start);
  const last = ends[ends.length - 1];
  const span = Math.max(1, Math.round((Date.parse(last) - Date.parse(start)) / 86_400_000));
  return fc.oneof(
    fc
      .tuple(fc.integer({ min: 0, max: ends.length - 1 }), fc.integer({ min: -1, max: 1 }))
      .map(([k, shift]) => addDays(ends[k], shift)),
    fc.integer({ min: -400, max: span + 400 }).map((n) => addDays(start, n)),
  );
};

/** Years a schedule spans; under 7,800 it ends before 9999 from any start up to 2099. */
const years = (s: VestingSchedule) =>
  (s.totalPeriods * s.periodLength) / { days: 365, months: 12, years: 1 }[s.periodType];

// Schedules running past 9999 are for the error test below.
const grant = schedule
  .filter((s) => years(s) < 7800)
  .chain((s) =>
    fc
      .record({ quantity: quantityFor(s.allocationType), start: startDate })
      .chain(({ quantity, start }) =>
        fc.record({
          input: fc.record({
            schedule: fc.constant(s),
            quantity: fc.constant(quantity),
            vestingStartDate: fc.constant(start),
            changeOfControlDate: fc.option(probe(s, start), { nil: null }),
            terminationDate: fc.option(probe(s, start), { nil: null }),
          }),
          dates: fc.array(probe(s, start), { minLength: 1, maxLength: 6 }),
        }),
      ),
  );

describe('vestedOn: the vested quantity on a date without expanding the schedule', () => {
  it('equals the expansion for random schedules, quantities, acceleration and dates', () => {
    fc.assert(
      fc.property(grant, ({ input, dates }) => {
        const triggers = [input.changeOfControlDate, input.terminationDate];
        agreeOn(input, [...dates, ...triggers.filter((d): d is string => !!d)]);
      }),
      { numRuns: 1000 },
    );
  });

  it('throws the expansion’s error when the expansion throws (bad quantity, dates past 9999, bad terms)', () => {
    const anyQuantity = fc.oneof(
      fc.constantFrom('12.5', '-3', '0.0000000001', '1e3', 'x', '0'),
      fc.bigInt({ min: 0n, max: 10n ** 9n }).map(String),
    );
    const anyDate = fc.oneof(
      day(2_900_000, 2_932_896), // 9909 .. 9999-12-31
      startDate,
      fc.constantFrom('2024-02-30', 'soon', '2024-1-01'),
    );
    fc.assert(
      fc.property(schedule, anyQuantity, anyDate, anyDate, (s, quantity, start, date) => {
        agree({ schedule: s, quantity, vestingStartDate: start }, date);
      }),
      { numRuns: 300 },
    );
    const bad: VestingSchedule[] = [
      { ...STANDARD_VESTING_SCHEDULE, cliffPeriods: 49 },
      { ...STANDARD_VESTING_SCHEDULE, totalPeriods: 0 },
      { ...STANDARD_VESTING_SCHEDULE, periodLength: 1.5 },
      { ...STANDARD_VESTING_SCHEDULE, periodType: 'weeks' as never },
      { ...STANDARD_VESTING_SCHEDULE, allocationType: 'ROUND_ROBIN' as never },
      { ...STANDARD_VESTING_SCHEDULE, periodType: 'days', vestingDayOfMonth: '15' },
      { ...STANDARD_VESTING_SCHEDULE, acceleration: { trigger: 'single', percent: '101' } },
    ];
    for (const s of bad) {
      expect(
        agree({ schedule: s, quantity: '4800', vestingStartDate: '2024-01-15' }, '2026-01-01'),
      ).toEqual({
        error: expect.stringMatching(/^CapMathError: /),
      });
    }
  });

  describe('hand-picked cases', () => {
    const at = (
      input: Omit<Partial<VestingProjectionInput>, 'schedule'> & {
        schedule?: Partial<VestingSchedule>;
      },
      date: string,
    ) =>
      agree(
        {
          quantity: '4800',
          vestingStartDate: '2024-01-15',
          ...input,
          schedule: { ...STANDARD_VESTING_SCHEDULE, ...input.schedule },
        },
        date,
      );

    it('the standard grant: nothing the day before the cliff, 25% on it, 1/48 a month after, all at the end', () => {
      expect(at({}, '2024-01-15')).toEqual({ vested: '0' });
      expect(at({}, '2025-01-14')).toEqual({ vested: '0' });
      expect(at({}, '2025-01-15')).toEqual({ vested: '1200' });
      expect(at({}, '2025-02-14')).toEqual({ vested: '1200' });
      expect(at({}, '2025-02-15')).toEqual({ vested: '1300' });
      expect(at({}, '2028-01-14')).toEqual({ vested: '4700' });
      expect(at({}, '2028-01-15')).toEqual({ vested: '4800' });
      expect(at({}, '2999-01-01')).toEqual({ vested: '4800' });
      expect(at({}, '1990-01-01')).toEqual({ vested: '0' });
    });

    it('clamps to the month’s end: a 31 January start vests on 28/29 February and 30 April', () => {
      const s = { cliffPeriods: 0 };
      const start = { vestingStartDate: '2024-01-31', schedule: s };
      expect(at(start, '2024-02-28')).toEqual({ vested: '0' });
      expect(at(start, '2024-02-29')).toEqual({ vested: '100' });
      expect(at(start, '2024-04-29')).toEqual({ vested: '200' });
      expect(at(start, '2024-04-30')).toEqual({ vested: '300' });
      expect(at(start, '2025-02-28')).toEqual({ vested: '1300' });
      const day31 = {
        ...start,
        schedule: { ...s, vestingDayOfMonth: '31_OR_LAST_DAY_OF_MONTH' as const },
      };
      expect(at({ ...day31, vestingStartDate: '2024-01-10' }, '2024-02-28')).toEqual({
        vested: '0',
      });
      expect(at({ ...day31, vestingStartDate: '2024-01-10' }, '2024-02-29')).toEqual({
        vested: '100',
      });
      const day01 = {
        vestingStartDate: '2024-01-31',
        schedule: { ...s, vestingDayOfMonth: '01' as const },
      };
      expect(at(day01, '2024-01-31')).toEqual({ vested: '0' });
      expect(at(day01, '2024-02-01')).toEqual({ vested: '100' });
    });

    it('years and days: leap days and period lengths', () => {
      const yearly = {
        schedule: { periodType: 'years' as const, totalPeriods: 4, cliffPeriods: 1 },
      };
      expect(at({ ...yearly, vestingStartDate: '2024-02-29' }, '2025-02-27')).toEqual({
        vested: '0',
      });
      expect(at({ ...yearly, vestingStartDate: '2024-02-29' }, '2025-02-28')).toEqual({
        vested: '1200',
      });
      expect(at({ ...yearly, vestingStartDate: '2024-02-29' }, '2028-02-29')).toEqual({
        vested: '4800',
      });
      const daily = {
        schedule: {
          periodType: 'days' as const,
          totalPeriods: 3650,
          cliffPeriods: 365,
          periodLength: 1,
        },
      };
      expect(at(daily, '2025-01-13')).toEqual({ vested: '0' });
      expect(at(daily, '2025-01-14')).toEqual({ vested: '480' });
      expect(at({ ...daily, quantity: '7' }, '2029-01-01')).toEqual({ vested: '3' });
    });

    it('the seven allocation types on 18 shares over 4 periods, with and without a cliff', () => {
      const expected: Record<AllocationType, string[]> = {
        CUMULATIVE_ROUNDING: ['5', '9', '14', '18'],
        CUMULATIVE_ROUND_DOWN: ['4', '9', '13', '18'],
        FRONT_LOADED: ['5', '10', '14', '18'],
        BACK_LOADED: ['4', '8', '13', '18'],
        FRONT_LOADED_TO_SINGLE_TRANCHE: ['6', '10', '14', '18'],
        BACK_LOADED_TO_SINGLE_TRANCHE: ['4', '8', '12', '18'],
        FRACTIONAL: ['4.5', '9', '13.5', '18'],
      };
      for (const allocationType of ALLOCATION_TYPES) {
        const schedule = { allocationType, totalPeriods: 4, cliffPeriods: 0 };
        const months = ['2024-02-15', '2024-03-15', '2024-04-15', '2024-05-15'];
        expect(months.map((d) => at({ schedule, quantity: '18' }, d))).toEqual(
          expected[allocationType].map((vested) => ({ vested })),
        );
        const cliff = { ...schedule, cliffPeriods: 2 };
        expect(at({ schedule: cliff, quantity: '18' }, '2024-02-15')).toEqual({ vested: '0' });
        expect(at({ schedule: cliff, quantity: '18' }, '2024-03-15')).toEqual({
          vested: expected[allocationType][1],
        });
      }
      const third = {
        schedule: { allocationType: 'FRACTIONAL' as const, totalPeriods: 3, cliffPeriods: 0 },
      };
      expect(at({ ...third, quantity: '1' }, '2024-02-15')).toEqual({ vested: '0.3333333333' });
      expect(at({ ...third, quantity: '1' }, '2024-03-15')).toEqual({ vested: '0.6666666667' });
      expect(at({ ...third, quantity: '1' }, '2024-04-15')).toEqual({ vested: '1' });
    });

    it('acceleration: 50% of the unvested on the change of control, the rest scaled on the later dates', () => {
      const single = { schedule: { acceleration: { trigger: 'single' as const, percent: '50' } } };
      const coc = { ...single, changeOfControlDate: '2025-06-01' };
      expect(at(coc, '2025-05-31')).toEqual({ vested: '1600' });
      expect(at(coc, '2025-06-01')).toEqual({ vested: '3200' });
      expect(at(coc, '2025-06-15')).toEqual({ vested: '3250' });
      expect(at(coc, '2028-01-14')).toEqual({ vested: '4750' });
      expect(at(coc, '2028-01-15')).toEqual({ vested: '4800' });
      // Before the cliff, and on a vesting date.
      expect(at({ ...single, changeOfControlDate: '2024-03-01' }, '2024-03-01')).toEqual({
        vested: '2400',
      });
      expect(at({ ...single, changeOfControlDate: '2025-01-15' }, '2025-01-15')).toEqual({
        vested: '3000',
      });
      // Double trigger: only a termination on or after the change of control.
      const double = { schedule: { acceleration: { trigger: 'double' as const, percent: '100' } } };
      expect(at({ ...double, changeOfControlDate: '2025-06-01' }, '2025-07-01')).toEqual({
        vested: '1700',
      });
      expect(
        at(
          { ...double, changeOfControlDate: '2025-06-01', terminationDate: '2025-05-01' },
          '2025-07-01',
        ),
      ).toEqual({ vested: '1700' });
      expect(
        at(
          { ...double, changeOfControlDate: '2025-06-01', terminationDate: '2025-06-20' },
          '2025-06-20',
        ),
      ).toEqual({ vested: '4800' });
      // Fractional grants accelerate to 10 places.
      const fractional = {
        quantity: '10',
        schedule: {
          allocationType: 'FRACTIONAL' as const,
          totalPeriods: 3,
          cliffPeriods: 0,
          acceleration: { trigger: 'single' as const, percent: '33.3333' },
        },
        changeOfControlDate: '2024-02-20',
      };
      expect(at(fractional, '2024-02-20')).toEqual({ vested: '5.5555533333' });
      expect(at(fractional, '2024-03-15')).toEqual({ vested: '7.7777766666' });
    });

    it('a schedule running past 9999-12-31 fails as the expansion does; 10,000 monthly periods do not', () => {
      expect(at({ schedule: { totalPeriods: 100_000, cliffPeriods: 0 } }, '2030-01-01')).toEqual({
        error: 'CapMathError: Date out of range (years 0001-9999): 95712 months from 2024-01-15',
      });
      const days = {
        periodType: 'days' as const,
        totalPeriods: 3650,
        periodLength: 1000,
        cliffPeriods: 0,
      };
      expect(at({ schedule: days }, '2030-01-01')).toEqual({
        error: 'CapMathError: Date out of range (years 0001-9999): year 10002',
      });
      expect(at({ schedule: { totalPeriods: 10_000, cliffPeriods: 0 } }, '2030-01-01')).toEqual({
        vested: '34',
      });
      expect(at({ schedule: { totalPeriods: 600, cliffPeriods: 0 } }, '2030-01-01')).toEqual({
        vested: '568',
      });
    });
  });
});
