import { checkNumbers, numericProperties } from './ocf-numbers';
import { Findings } from './ocf-problems';

const digits = (n: number) => '9'.repeat(n);

describe('numericProperties', () => {
  it('names the properties the OCF schemas type as Numeric, in a oneOf too', () => {
    const names = numericProperties();
    for (const name of ['quantity', 'amount', 'initial_shares_authorized', 'shares_reserved']) {
      expect(names.has(name)).toBe(true);
    }
    for (const name of ['id', 'custom_id', 'date', 'name']) expect(names.has(name)).toBe(false);
  });
});

describe('checkNumbers', () => {
  const problems = (object: unknown) => {
    const found = new Findings();
    checkNumbers('T.ocf.json', '/items/3', object, found);
    return found.list;
  };

  it('accepts what the ledger holds: 28 digits before the point, leading zeros and sign aside', () => {
    expect(
      problems({
        quantity: `${digits(28)}.1234567890`,
        share_price: { amount: `-000${digits(28)}`, currency: 'USD' },
        initial_shares_authorized: 'UNLIMITED',
        custom_id: digits(40),
      }),
    ).toEqual([]);
  });

  it('refuses more, at the value’s pointer, at any depth', () => {
    expect(
      problems({
        quantity: digits(29),
        share_price: { amount: `${digits(40)}.5` },
        ratios: [{ numerator: `+${digits(30)}` }],
      }),
    ).toEqual([
      {
        file: 'T.ocf.json',
        path: '/items/3/quantity',
        reason: expect.stringContaining('more than 28 digits before the point'),
      },
      { file: 'T.ocf.json', path: '/items/3/share_price/amount', reason: expect.any(String) },
      { file: 'T.ocf.json', path: '/items/3/ratios/0/numerator', reason: expect.any(String) },
    ]);
  });
});
