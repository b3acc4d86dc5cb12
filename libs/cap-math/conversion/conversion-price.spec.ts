import { D } from '../decimal';
import { CapMathError } from '../errors';
import {
  convertAtLowestPrice,
  parseTerms,
  roundPrice,
  roundPriceCandidate,
  sharesFor,
} from './conversion-price';

describe('conversion price helpers', () => {
  it('parseTerms validates the cap and discount', () => {
    const { cap, discount } = parseTerms({ valuationCap: '5000000', discount: '0.2' });
    expect([cap?.toFixed(), discount.toFixed()]).toEqual(['5000000', '0.2']);
    expect(parseTerms({}).cap).toBeUndefined();
    expect(parseTerms({}).discount.toFixed()).toBe('0');
    expect(() => parseTerms({ discount: '1' })).toThrow(CapMathError);
    expect(() => parseTerms({ discount: '-0.1' })).toThrow(CapMathError);
    expect(() => parseTerms({ valuationCap: '0' })).toThrow(CapMathError);
  });

  it('roundPriceCandidate applies the discount', () => {
    expect(roundPriceCandidate(new D('1.25'), new D('0.2'))).toEqual({
      method: 'discount',
      price: new D(1),
    });
    expect(roundPriceCandidate(new D('1.25'), new D(0)).method).toBe('price');
  });

  it('roundPrice rounds half up only when asked', () => {
    expect(roundPrice(new D('0.45455'), 4).toFixed()).toBe('0.4546');
    expect(roundPrice(new D('0.45454'), undefined).toFixed()).toBe('0.45454');
    expect(() => roundPrice(new D('0.00004'), 4)).toThrow(CapMathError);
  });

  it('convertAtLowestPrice takes the lowest price, the first on a tie', () => {
    const amount = new D(1000);
    const tie = convertAtLowestPrice(
      amount,
      [
        { method: 'price', price: new D(2) },
        { method: 'cap', price: new D(2) },
      ],
      {},
    );
    expect([tie.method, tie.shares.toFixed()]).toEqual(['price', '500']);
    const cap = convertAtLowestPrice(
      amount,
      [
        { method: 'discount', price: new D(3) },
        { method: 'cap', price: new D(2) },
      ],
      {},
    );
    expect([cap.method, cap.conversionPrice.toFixed()]).toEqual(['cap', '2']);
  });

  it('sharesFor floors unless fractional', () => {
    expect(sharesFor(new D('10.9'), false).toFixed()).toBe('10');
    expect(sharesFor(new D('10.9'), true).toFixed()).toBe('10.9');
  });
});
