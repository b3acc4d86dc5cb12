import { CapMathError } from '../errors';
import { priceRound } from './price-round';

describe('priceRound', () => {
  it('prices the Safe Primer Series A: $10M / 11M shares = $0.909 (3 places), 1,100,110 shares for $1M', () => {
    const round = priceRound({
      preMoneyValuation: '10000000',
      preMoneyFullyDilutedShares: '11000000',
      investment: '1000000',
      priceDecimals: 3,
    });
    expect(round.pricePerShare.toFixed()).toBe('0.909');
    expect(round.newShares.toFixed()).toBe('1100110');
    expect(round.amountInvested.toFixed()).toBe('999999.99');
    expect(round.postMoneyFullyDilutedShares.toFixed()).toBe('12100110');
    expect(round.postMoneyValuation.toFixed()).toBe('11000000');
  });

  it('prices the Safe Primer Series AA: $2M / 10.5M shares = $0.19 (2 places), 2,105,263 shares for $400,000', () => {
    const round = priceRound({
      preMoneyValuation: '2000000',
      preMoneyFullyDilutedShares: '10500000',
      investment: '400000',
      priceDecimals: 2,
    });
    expect([round.pricePerShare.toFixed(), round.newShares.toFixed()]).toEqual(['0.19', '2105263']);
  });

  it('keeps full precision by default', () => {
    const round = priceRound({
      preMoneyValuation: '10000000',
      preMoneyFullyDilutedShares: '11000000',
      investment: '1000000',
    });
    expect(round.pricePerShare.toFixed(12)).toBe('0.909090909091');
    expect(round.newShares.toFixed()).toBe('1100000');
    expect(round.postMoneyFullyDilutedShares.toFixed()).toBe('12100000');
  });

  it('issues fractional shares when asked, and nothing for no investment', () => {
    const fractional = priceRound({
      preMoneyValuation: '3',
      preMoneyFullyDilutedShares: '1',
      investment: '1',
      fractional: true,
    });
    expect(fractional.newShares.toFixed(6)).toBe('0.333333');
    const none = priceRound({
      preMoneyValuation: '3',
      preMoneyFullyDilutedShares: '1',
      investment: '0',
    });
    expect(none.newShares.toFixed()).toBe('0');
  });

  it('rejects impossible input', () => {
    const ok = { preMoneyValuation: '1', preMoneyFullyDilutedShares: '1', investment: '1' };
    expect(() => priceRound({ ...ok, preMoneyValuation: '0' })).toThrow(CapMathError);
    expect(() => priceRound({ ...ok, preMoneyFullyDilutedShares: '0' })).toThrow(CapMathError);
    expect(() => priceRound({ ...ok, investment: '-1' })).toThrow(CapMathError);
    expect(() => priceRound({ ...ok, priceDecimals: 1.5 })).toThrow(CapMathError);
  });
});
