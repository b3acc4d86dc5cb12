import { CapMathError } from '../errors';
import { accelerate, effectiveAccelerationDate } from './acceleration';
import { STANDARD_VESTING_SCHEDULE } from './schedule';
import { vestingEvents } from './vesting-events';

const standard = STANDARD_VESTING_SCHEDULE;

const rows = (events: ReturnType<typeof vestingEvents>) =>
  events.map((e) => [e.date, e.amount.toFixed(), e.cumulative.toFixed()]);

describe('accelerate', () => {
  const grant = vestingEvents(standard, '4800', '2024-01-15');

  it('vests half of the unvested shares on the trigger date and halves the later tranches', () => {
    // By 2026-01-15, 2400 have vested (that day's tranche included); 2400 remain.
    const result = rows(accelerate(grant, { percent: '50' }, '2026-01-15'));
    expect(result).toHaveLength(37);
    expect(result[12]).toEqual(['2026-01-15', '1300', '3600']);
    expect(result[13]).toEqual(['2026-02-15', '50', '3650']);
    expect(result.slice(13).every(([, amount]) => amount === '50')).toBe(true);
    expect(result[36]).toEqual(['2028-01-15', '50', '4800']);
  });

  it('vests everything left on a mid-month trigger at 100%', () => {
    const result = rows(accelerate(grant, { percent: 100 }, '2026-01-20'));
    expect(result).toHaveLength(14);
    expect(result[12]).toEqual(['2026-01-15', '100', '2400']);
    expect(result[13]).toEqual(['2026-01-20', '2400', '4800']);
  });

  it('accelerates before the cliff', () => {
    const result = rows(accelerate(grant, { percent: '25' }, '2024-06-01'));
    expect(result[0]).toEqual(['2024-06-01', '1200', '1200']);
    // The cliff tranche of 1200 shrinks by the same three quarters.
    expect(result[1]).toEqual(['2025-01-15', '900', '2100']);
    expect(result[result.length - 1][2]).toBe('4800');
  });

  it('rounds the accelerated part down and rescales uneven tranches exactly', () => {
    const uneven = vestingEvents(standard, '1000', '2024-01-15');
    // 333 vested by 2025-05-15; 25% of the 667 unvested is 166.75, so 166 vest now.
    const result = accelerate(uneven, { percent: '25' }, '2025-06-01');
    const trigger = result.find((e) => e.date === '2025-06-01');
    expect(trigger?.amount.toFixed()).toBe('166');
    // The next tranche (21 of 667) becomes floor(21 × 501 / 667) = 15.
    expect(result.find((e) => e.date === '2025-06-15')?.amount.toFixed()).toBe('15');
    expect(result[result.length - 1].cumulative.toFixed()).toBe('1000');
    expect(result.every((e) => e.amount.isInteger())).toBe(true);
  });

  it('keeps fractions for fractional grants', () => {
    const fractional = vestingEvents(
      { ...standard, totalPeriods: 4, cliffPeriods: 0, allocationType: 'FRACTIONAL' },
      '10',
      '2024-01-01',
    );
    expect(rows(accelerate(fractional, { percent: '50', fractional: true }, '2024-02-15'))).toEqual(
      [
        ['2024-02-01', '2.5', '2.5'],
        ['2024-02-15', '3.75', '6.25'],
        ['2024-03-01', '1.25', '7.5'],
        ['2024-04-01', '1.25', '8.75'],
        ['2024-05-01', '1.25', '10'],
      ],
    );
  });

  it('changes nothing at 0%, after the last event, or when the accelerated part rounds to 0', () => {
    expect(rows(accelerate(grant, { percent: 0 }, '2026-01-15'))).toEqual(rows(grant));
    expect(rows(accelerate(grant, { percent: 100 }, '2029-01-01'))).toEqual(rows(grant));
    const tiny = vestingEvents({ ...standard, cliffPeriods: 0 }, '48', '2024-01-15');
    expect(rows(accelerate(tiny, { percent: '1' }, '2027-01-20'))).toEqual(rows(tiny));
  });

  it('rejects a bad percent or date', () => {
    expect(() => accelerate(grant, { percent: '100.5' }, '2026-01-15')).toThrow(CapMathError);
    expect(() => accelerate(grant, { percent: '-1' }, '2026-01-15')).toThrow(CapMathError);
    expect(() => accelerate(grant, { percent: '50' }, '2026-02-30')).toThrow(CapMathError);
  });
});

describe('effectiveAccelerationDate', () => {
  it('single trigger: the change of control', () => {
    expect(
      effectiveAccelerationDate({ trigger: 'single', changeOfControlDate: '2026-03-01' }),
    ).toBe('2026-03-01');
    expect(
      effectiveAccelerationDate({ trigger: 'single', terminationDate: '2026-03-01' }),
    ).toBeNull();
  });

  it('double trigger: the termination on or after a change of control', () => {
    expect(
      effectiveAccelerationDate({
        trigger: 'double',
        changeOfControlDate: '2026-03-01',
        terminationDate: '2026-09-30',
      }),
    ).toBe('2026-09-30');
    expect(
      effectiveAccelerationDate({
        trigger: 'double',
        changeOfControlDate: '2026-03-01',
        terminationDate: '2026-03-01',
      }),
    ).toBe('2026-03-01');
    expect(
      effectiveAccelerationDate({
        trigger: 'double',
        changeOfControlDate: '2026-03-01',
        terminationDate: '2026-02-28',
      }),
    ).toBeNull();
    expect(
      effectiveAccelerationDate({ trigger: 'double', changeOfControlDate: '2026-03-01' }),
    ).toBeNull();
    expect(
      effectiveAccelerationDate({ trigger: 'double', terminationDate: '2026-03-01' }),
    ).toBeNull();
  });

  it('rejects bad dates and triggers', () => {
    expect(() =>
      effectiveAccelerationDate({ trigger: 'single', changeOfControlDate: '2026-02-30' }),
    ).toThrow(CapMathError);
    expect(() => effectiveAccelerationDate({ trigger: 'triple' as 'single' })).toThrow(
      CapMathError,
    );
  });
});
