import { capAndDiscount } from './cap-and-discount';

describe('capAndDiscount', () => {
  it('the discount from percent to a fraction; the cap as recorded', () => {
    expect(capAndDiscount({ valuationCap: '8000000', discountPercent: '20' })).toEqual({
      valuationCap: '8000000',
      discount: '0.2',
    });
    expect(capAndDiscount({ discountPercent: '12.5' })).toEqual({ discount: '0.125' });
  });

  it('an absent, empty or zero discount is no discount; an absent or empty cap no cap', () => {
    expect(capAndDiscount({})).toEqual({});
    expect(capAndDiscount({ valuationCap: null, discountPercent: null })).toEqual({});
    expect(capAndDiscount({ valuationCap: '', discountPercent: '' })).toEqual({});
    expect(capAndDiscount({ valuationCap: '1000000', discountPercent: '0' })).toEqual({
      valuationCap: '1000000',
    });
  });
});
