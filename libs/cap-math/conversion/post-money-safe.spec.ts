import { D } from '../decimal';
import { CapMathError } from '../errors';
import { convertPostMoneySafes, PostMoneySafesInput } from './post-money-safe';
import { convertPreMoneySafe } from './pre-money-safe';
import { priceRound } from './price-round';

/*
 * Worked examples of the YC "Post-Money Safe User Guide", Appendix II. The guide PDF itself
 * could not be retrieved here; its printed figures were taken from several independent
 * public write-ups that reproduce them to the share (they agree with each other and with the
 * definitions). Example 1: 9,250,000 founder shares, 300,000 outstanding options, 350,000
 * promised options, 100,000 unissued pool; Investor A $200,000 at a $4M post-money cap,
 * Investor B $800,000 at an $8M post-money cap. The guide rounds prices to 4 places and
 * share counts down, and its round price is an input here, as it is in the guide.
 */
const example1Capitalization = {
  issuedShares: '9250000',
  outstandingOptions: '300000',
  promisedOptions: '350000',
  unissuedOptionPool: '100000',
};
const example1Safes = [
  { key: 'investor-a', purchaseAmount: '200000', valuationCap: '4000000' },
  { key: 'investor-b', purchaseAmount: '800000', valuationCap: '8000000' },
];
const rows = (result: ReturnType<typeof convertPostMoneySafes>) =>
  result.conversions.map((c) => [
    c.key,
    c.method,
    c.shares.toFixed(),
    c.conversionPrice.toString(),
  ]);

describe('convertPostMoneySafes — YC Post-Money Safe User Guide, Appendix II', () => {
  it('Example 1, Q2 ($5M at $15M pre, price $1.1144): Company Capitalization 11,764,705; A 588,235; B 1,176,470', () => {
    const result = convertPostMoneySafes({
      capitalization: example1Capitalization,
      standardPreferredPrice: '1.1144',
      safes: example1Safes,
    });
    expect(result.companyCapitalization.floor().toFixed()).toBe('11764705');
    // C = 10,000,000 / (1 − 5% − 10%) = 200,000,000 / 17; Safe Prices $0.34 and $0.68.
    expect(result.companyCapitalization.toFixed(20)).toBe(new D(200000000).div(17).toFixed(20));
    expect(rows(result)).toEqual([
      ['investor-a', 'cap', '588235', '0.34'],
      ['investor-b', 'cap', '1176470', '0.68'],
    ]);
  });

  it('Example 1, Q2 round: $15M / (11,764,705 + 1,695,000 pool increase) = $1.1144; 4,486,719 new shares; 17,946,424 in total', () => {
    const round = priceRound({
      preMoneyValuation: '15000000',
      preMoneyFullyDilutedShares: 11764705 + 1695000,
      investment: '5000000',
      priceDecimals: 4,
    });
    expect(round.pricePerShare.toFixed()).toBe('1.1144');
    expect(round.newShares.toFixed()).toBe('4486719');
    expect(round.postMoneyFullyDilutedShares.toFixed()).toBe('17946424');
  });

  it('Example 1, Q5 ($2.2M at $8.8M pre, price $0.6577): A converts at its cap (590,334), B at the round price (1,216,360)', () => {
    const result = convertPostMoneySafes({
      capitalization: example1Capitalization,
      standardPreferredPrice: '0.6577',
      safes: example1Safes,
    });
    expect(result.companyCapitalization.floor().toFixed()).toBe('11806694');
    expect(result.conversions.map((c) => [c.key, c.method, c.shares.toFixed()])).toEqual([
      ['investor-a', 'cap', '590334'],
      ['investor-b', 'price', '1216360'],
    ]);
    expect(result.conversions[1].conversionPrice.toFixed()).toBe('0.6577');
    expect(result.conversions[0].conversionPrice.toFixed(6)).toBe('0.338791');

    const round = priceRound({
      preMoneyValuation: '8800000',
      preMoneyFullyDilutedShares: 10000000 + 590334 + 1216360 + 1573000,
      investment: '2200000',
      priceDecimals: 4,
    });
    expect(round.pricePerShare.toFixed()).toBe('0.6577');
    expect(round.newShares.toFixed()).toBe('3344990');
    expect(round.postMoneyFullyDilutedShares.toFixed()).toBe('16724684');
  });

  it('Example 2, Q2 (A holds a pre-money safe at a $3.8M cap): A 615,763 at $0.3248; Company Capitalization 11,795,292; B 1,179,529', () => {
    // The pre-money safe's capitalization includes the 1,700,000 pool increase, not the safes.
    const a = convertPreMoneySafe({
      purchaseAmount: '200000',
      valuationCap: '3800000',
      preMoneyCapitalization: 10000000 + 1700000,
      standardPreferredPrice: '1.1115',
      priceDecimals: 4,
    });
    expect([a.method, a.conversionPrice.toFixed(), a.shares.toFixed()]).toEqual([
      'cap',
      '0.3248',
      '615763',
    ]);

    const result = convertPostMoneySafes({
      capitalization: { ...example1Capitalization, otherConvertingShares: a.shares },
      standardPreferredPrice: '1.1115',
      safes: [example1Safes[1]],
    });
    expect(result.companyCapitalization.floor().toFixed()).toBe('11795292');
    expect(rows(result).map((r) => r.slice(0, 3))).toEqual([['investor-b', 'cap', '1179529']]);

    const round = priceRound({
      preMoneyValuation: '15000000',
      preMoneyFullyDilutedShares: 11795292 + 1700000,
      investment: '5000000',
      priceDecimals: 4,
    });
    expect(round.pricePerShare.toFixed()).toBe('1.1115');
    // $5M / $1.1115 = 4,498,425.55: we round down; the guide prints 4,498,426 (nearest).
    expect(round.newShares.toFixed()).toBe('4498425');
    expect(4498426 - round.newShares.toNumber()).toBe(1);
  });

  it('Example 2, Q5 ($2.2M at $8.8M pre, price $0.6566): A 609,198 at its cap, B 1,218,397 at the round price', () => {
    const a = convertPreMoneySafe({
      purchaseAmount: '200000',
      valuationCap: '3800000',
      preMoneyCapitalization: 10000000 + 1575000,
      standardPreferredPrice: '0.6566',
      priceDecimals: 4,
    });
    expect([a.method, a.conversionPrice.toFixed(), a.shares.toFixed()]).toEqual([
      'cap',
      '0.3283',
      '609198',
    ]);
    const result = convertPostMoneySafes({
      capitalization: { ...example1Capitalization, otherConvertingShares: a.shares },
      standardPreferredPrice: '0.6566',
      safes: [example1Safes[1]],
    });
    expect(rows(result).map((r) => r.slice(0, 3))).toEqual([['investor-b', 'price', '1218397']]);

    const round = priceRound({
      preMoneyValuation: '8800000',
      preMoneyFullyDilutedShares: 10000000 + 1575000 + 609198 + 1218397,
      investment: '2200000',
      priceDecimals: 4,
    });
    expect(round.pricePerShare.toFixed()).toBe('0.6566');
    // $2.2M / $0.6566 = 3,350,593.97: we round down; the guide prints 3,350,594 (nearest).
    expect(round.newShares.toFixed()).toBe('3350593');
  });
});

describe('convertPostMoneySafes — from the definitions', () => {
  const base: PostMoneySafesInput = {
    capitalization: { issuedShares: '9000000' },
    standardPreferredPrice: '2',
    safes: [{ key: 'seed', purchaseAmount: '1000000', valuationCap: '10000000' }],
  };

  it('one capped safe without discount owns exactly purchase amount / cap', () => {
    const result = convertPostMoneySafes(base);
    // C = 9,000,000 / (1 − 10%) = 10,000,000; Safe Price = $1; 1,000,000 shares = 10% of C.
    expect(result.companyCapitalization.toFixed()).toBe('10000000');
    expect(rows(result)).toEqual([['seed', 'cap', '1000000', '1']]);
  });

  it('converts at the discount price when it beats the cap', () => {
    // Cap price would be $1 (C = 10M); the round at $1.10 less 20% is $0.88.
    const result = convertPostMoneySafes({
      ...base,
      standardPreferredPrice: '1.1',
      safes: [{ ...base.safes[0], discount: '0.2' }],
    });
    expect(rows(result)).toEqual([['seed', 'discount', '1136363', '0.88']]);
    expect(result.companyCapitalization.toFixed(6)).toBe('10136363.636364');
  });

  it('an uncapped, undiscounted (MFN) safe converts at the round price', () => {
    const result = convertPostMoneySafes({
      ...base,
      safes: [{ key: 'mfn', purchaseAmount: '500000' }],
    });
    expect(rows(result)).toEqual([['mfn', 'price', '250000', '2']]);
    expect(result.companyCapitalization.toFixed()).toBe('9250000');
  });

  it("counts safes converting at the round price in the capped safes' capitalization", () => {
    const result = convertPostMoneySafes({
      capitalization: { issuedShares: '8000000' },
      standardPreferredPrice: '1',
      safes: [
        { key: 'capped', purchaseAmount: '1000000', valuationCap: '10000000' },
        { key: 'discount-only', purchaseAmount: '1000000', discount: '0.2' },
      ],
    });
    // Discount-only: 1,000,000 / 0.8 = 1,250,000 shares. C = (8M + 1.25M) / 0.9.
    expect(result.companyCapitalization.toFixed(4)).toBe('10277777.7778');
    expect(rows(result).map((r) => r.slice(0, 3))).toEqual([
      ['capped', 'cap', '1027777'],
      ['discount-only', 'discount', '1250000'],
    ]);
  });

  it('reports a cap that only equals the round price as a conversion at the price', () => {
    // C = 10M makes the Safe Price exactly the round price of $1.
    const result = convertPostMoneySafes({ ...base, standardPreferredPrice: '1' });
    expect(rows(result)).toEqual([['seed', 'price', '1000000', '1']]);
  });

  it('keeps fractional shares when asked', () => {
    const result = convertPostMoneySafes({
      ...base,
      standardPreferredPrice: '3',
      fractional: true,
      safes: [{ key: 'mfn', purchaseAmount: '1000000' }],
    });
    expect(result.conversions[0].shares.toFixed(6)).toBe('333333.333333');
  });

  it('rejects safes that would own the whole company, and bad input', () => {
    expect(() =>
      convertPostMoneySafes({
        ...base,
        safes: [
          { key: 'a', purchaseAmount: '6000000', valuationCap: '10000000' },
          { key: 'b', purchaseAmount: '4000000', valuationCap: '10000000' },
        ],
      }),
    ).toThrow(CapMathError);
    expect(() => convertPostMoneySafes({ ...base, capitalization: { issuedShares: '0' } })).toThrow(
      CapMathError,
    );
    expect(() =>
      convertPostMoneySafes({ ...base, safes: [{ ...base.safes[0], discount: '1' }] }),
    ).toThrow(CapMathError);
    expect(() => convertPostMoneySafes({ ...base, safes: [base.safes[0], base.safes[0]] })).toThrow(
      CapMathError,
    );
    expect(() =>
      convertPostMoneySafes({ ...base, safes: [{ ...base.safes[0], valuationCap: '0' }] }),
    ).toThrow(CapMathError);
  });
});
