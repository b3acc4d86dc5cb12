import { CapMathError } from './errors';
import { accruedInterest, AccruedInterestInput } from './interest';

const base: AccruedInterestInput = {
  principal: '100000',
  annualRate: '0.08',
  interestType: 'simple',
  dayCount: 'actual/365',
  startDate: '2023-01-01',
  endDate: '2024-01-01',
};

describe('accruedInterest', () => {
  it('simple actual/365 over 365 days: 100,000 at 8% = 8,000', () => {
    expect(accruedInterest(base).toFixed()).toBe('8000');
  });

  it('simple actual/365 over a leap year: 8,000 × 366/365', () => {
    const interest = accruedInterest({ ...base, startDate: '2024-01-01', endDate: '2025-01-01' });
    expect(interest.toFixed(6)).toBe('8021.917808');
  });

  it('simple actual/365 over 90 days: 100,000 × 0.08 × 90/365 = 1,972.60', () => {
    const interest = accruedInterest({ ...base, endDate: '2023-04-01' });
    expect(interest.toFixed(2)).toBe('1972.60');
  });

  it('simple 30/360 over six months from a month end: 100,000 × 6% / 2 = 3,000', () => {
    const interest = accruedInterest({
      ...base,
      annualRate: '0.06',
      dayCount: '30/360',
      startDate: '2024-01-31',
      endDate: '2024-07-31',
    });
    expect(interest.toFixed()).toBe('3000');
  });

  it('compound annually over two 30/360 years: 100,000 × (1.08² − 1) = 16,640', () => {
    const interest = accruedInterest({
      ...base,
      interestType: 'compound',
      dayCount: '30/360',
      startDate: '2023-01-15',
      endDate: '2025-01-15',
    });
    expect(interest.toFixed()).toBe('16640');
  });

  it('compound monthly over one year: 100,000 × (1.01¹² − 1) = 12,682.503013196972066', () => {
    const interest = accruedInterest({
      ...base,
      annualRate: '0.12',
      interestType: 'compound',
      compoundingPeriodsPerYear: 12,
      dayCount: '30/360',
      startDate: '2023-03-01',
      endDate: '2024-03-01',
    });
    expect(interest.toFixed(15)).toBe('12682.503013196972066');
  });

  it('compound with a part period: 100,000 × (√1.08 − 1) for half a year', () => {
    const interest = accruedInterest({
      ...base,
      interestType: 'compound',
      dayCount: '30/360',
      startDate: '2023-01-01',
      endDate: '2023-07-01',
    });
    expect(interest.toFixed(10)).toBe('3923.0484541326');
  });

  it('accrues nothing over zero days or at a zero rate', () => {
    expect(accruedInterest({ ...base, endDate: '2023-01-01' }).toFixed()).toBe('0');
    expect(accruedInterest({ ...base, annualRate: '0', interestType: 'compound' }).toFixed()).toBe(
      '0',
    );
  });

  it('rejects impossible input', () => {
    expect(() => accruedInterest({ ...base, endDate: '2022-12-31' })).toThrow(CapMathError);
    expect(() => accruedInterest({ ...base, principal: '-1' })).toThrow(CapMathError);
    expect(() => accruedInterest({ ...base, annualRate: '-0.01' })).toThrow(CapMathError);
    expect(() =>
      accruedInterest({ ...base, interestType: 'compound', compoundingPeriodsPerYear: 0 }),
    ).toThrow(CapMathError);
    expect(() => accruedInterest({ ...base, interestType: 'continuous' as 'simple' })).toThrow(
      CapMathError,
    );
  });
});
