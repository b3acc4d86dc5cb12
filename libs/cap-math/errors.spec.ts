import { about, CapMathError } from './errors';
import { modelRound } from './modeling/round';
import { waterfall } from './modeling/waterfall';
import { applySplit } from './splits';
import { nonNegative, positive } from './validate';
import { projectVesting, STANDARD_VESTING_SCHEDULE, vestedOn } from './vesting';

/** The CapMathError `work` throws. */
function thrown(work: () => unknown): CapMathError {
  try {
    work();
  } catch (error) {
    if (error instanceof CapMathError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('CapMathError', () => {
  it('is an Error with its own name and the field it is about, so callers can map it to a client error', () => {
    const error = new CapMathError(
      'cliffPeriods (49) cannot exceed totalPeriods (48)',
      'cliffPeriods',
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(CapMathError);
    expect(error.name).toBe('CapMathError');
    expect(error.message).toBe('cliffPeriods (49) cannot exceed totalPeriods (48)');
    expect(error.field).toBe('cliffPeriods');
  });

  it('`about` makes what a helper throws about the caller field, message unchanged', () => {
    const error = thrown(() => about('vestingStartDate', () => nonNegative('value', '-1')));
    expect(error).toMatchObject({
      field: 'vestingStartDate',
      message: 'value must not be negative (got -1)',
    });
    expect(about('price', () => 42)).toBe(42);
    const other = new Error('not ours');
    expect(() =>
      about('price', () => {
        throw other;
      }),
    ).toThrow(other);
  });
});

describe('the field of an error', () => {
  it('is the name a guard was given, also when the value is no number at all', () => {
    expect(thrown(() => nonNegative('quantity', '-1')).field).toBe('quantity');
    expect(thrown(() => positive('ratioNumerator', 'two'))).toMatchObject({
      field: 'ratioNumerator',
      message: 'Not a plain decimal number: "two"',
    });
    expect(thrown(() => applySplit('100', '0', '1', { fractional: false })).field).toBe(
      'ratioNumerator',
    );
  });

  it('is the schedule term, the quantity or the start date of a vesting projection', () => {
    const grant = {
      schedule: STANDARD_VESTING_SCHEDULE,
      quantity: '4800',
      vestingStartDate: '2024-01-15',
    };
    const cliff = { ...grant, schedule: { ...STANDARD_VESTING_SCHEDULE, cliffPeriods: 49 } };
    expect(thrown(() => projectVesting(cliff))).toMatchObject({
      field: 'cliffPeriods',
      message: 'cliffPeriods (49) cannot exceed totalPeriods (48)',
    });
    const noPeriods = { ...grant, schedule: { ...STANDARD_VESTING_SCHEDULE, totalPeriods: 0 } };
    expect(thrown(() => projectVesting(noPeriods)).field).toBe('totalPeriods');
    expect(thrown(() => projectVesting({ ...grant, quantity: '10.5' })).field).toBe('quantity');
    // Its message names no field: the date the schedule cannot reach comes from the start date.
    const late = { ...grant, vestingStartDate: '9998-01-01' };
    expect(thrown(() => projectVesting(late))).toMatchObject({
      field: 'vestingStartDate',
      message: expect.stringMatching(/^Date out of range/),
    });
    expect(thrown(() => vestedOn(late, '9998-06-01')).field).toBe('vestingStartDate');
    expect(thrown(() => projectVesting({ ...grant, vestingStartDate: '2024-02-30' })).field).toBe(
      'vestingStartDate',
    );
  });

  it("is the path in a round model's input; the message names it as people read it", () => {
    const round = {
      holders: [{ key: 'founder', shares: '1000000' }],
      poolAvailable: '0',
      preMoneyValuation: '1000000',
      investments: [{ name: 'Lead', amount: '100000' }],
      closingDate: '2025-01-15',
    };
    expect(
      thrown(() => modelRound({ ...round, investments: [{ name: 'Lead', amount: '-5' }] })),
    ).toMatchObject({
      field: 'investments[0].amount',
      message: 'amount of investment "Lead" must not be negative (got -5)',
    });
    expect(
      thrown(() => modelRound({ ...round, holders: [{ key: 'founder', shares: 'many' }] })),
    ).toMatchObject({
      field: 'holders[0].shares',
      message: 'shares of holder "founder": Not a plain decimal number: "many"',
    });
    const safe = {
      key: 'safe-1',
      holderKey: 'angel',
      type: 'post_money_safe' as const,
      amount: '100',
      discount: '1',
    };
    expect(thrown(() => modelRound({ ...round, convertibles: [safe] })).field).toBe(
      'convertibles[0].discount',
    );
    expect(thrown(() => modelRound({ ...round, closingDate: '2025-02-30' }))).toMatchObject({
      field: 'closingDate',
      message: 'closingDate: No such calendar date: "2025-02-30"',
    });
  });

  it("is the path in a waterfall's input", () => {
    const structure = {
      exitValue: '1000',
      classes: [
        { key: 'common', kind: 'common' as const },
        { key: 'series-a', kind: 'preferred' as const },
      ],
      holdings: [{ holderKey: 'founder', classKey: 'common', shares: '100' }],
    };
    expect(thrown(() => waterfall(structure))).toMatchObject({
      field: 'classes[1].originalIssuePrice',
      message: 'originalIssuePrice of class "series-a" is required for a preferred class',
    });
    const ok = { ...structure, classes: [structure.classes[0]] };
    expect(thrown(() => waterfall({ ...ok, exitValue: '-1' })).field).toBe('exitValue');
    const option = { key: 'grant-1', holderKey: 'employee', shares: '-10', exercisePrice: '1' };
    expect(thrown(() => waterfall({ ...ok, options: [option] }))).toMatchObject({
      field: 'options[0].shares',
      message: 'shares of option "grant-1" must not be negative (got -10)',
    });
  });
});
