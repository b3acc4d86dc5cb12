import { CapMathError } from './errors';
import { fullyDiluted, fullyDilutedByHolder } from './fully-diluted';

describe('fullyDiluted', () => {
  it('adds issued shares, outstanding options, the available pool and as-converted shares', () => {
    const fd = fullyDiluted({
      issued: '9250000',
      outstandingOptions: '650000',
      poolAvailable: '100000',
      asConverted: '1764705',
    });
    expect(fd.total.toFixed()).toBe('11764705');
    expect(fd.outstandingOptions.toFixed()).toBe('650000');
  });

  it('treats missing parts as zero', () => {
    const fd = fullyDiluted({ issued: '1000' });
    expect(fd.total.toFixed()).toBe('1000');
    expect(fd.poolAvailable.toFixed()).toBe('0');
  });

  it('rejects negative parts', () => {
    expect(() => fullyDiluted({ issued: '10', poolAvailable: '-1' })).toThrow(CapMathError);
  });
});

describe('fullyDilutedByHolder', () => {
  it('sums each holder and adds the unallocated pool as a row', () => {
    const rows = fullyDilutedByHolder(
      [
        { key: 'alice', issued: '6000000' },
        { key: 'bob', issued: '2000000', options: '500000' },
        { key: 'fund', asConverted: '1000000' },
      ],
      '500000',
    );
    expect(rows.map((r) => [r.key, r.shares.toFixed(), r.percent.toFixed()])).toEqual([
      ['alice', '6000000', '60'],
      ['bob', '2500000', '25'],
      ['fund', '1000000', '10'],
      ['Unallocated pool', '500000', '5'],
    ]);
  });

  it('omits an empty pool and honours the options', () => {
    const rows = fullyDilutedByHolder(
      [
        { key: 'a', issued: '1' },
        { key: 'b', issued: '2' },
      ],
      0,
      { decimals: 1, poolKey: 'pool' },
    );
    expect(rows.map((r) => r.percent.toFixed())).toEqual(['33.3', '66.7']);
  });
});
