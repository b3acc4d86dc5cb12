import { CapMathError } from './errors';
import { allocateProRata } from './pro-rata';

describe('allocateProRata', () => {
  it('splits whole shares and conserves the total', () => {
    const parts = allocateProRata('1000', [
      { key: 'a', weight: '1' },
      { key: 'b', weight: '1' },
      { key: 'c', weight: '1' },
    ]);
    expect(parts.map((p) => p.quantity.toFixed())).toEqual(['334', '333', '333']);
  });

  it('splits in decimal units when asked', () => {
    const parts = allocateProRata(
      '10',
      [
        { key: 'a', weight: '2' },
        { key: 'b', weight: '1' },
      ],
      3,
    );
    expect(parts.map((p) => p.quantity.toFixed())).toEqual(['6.667', '3.333']);
  });

  it('refuses what cannot be conserved', () => {
    expect(() => allocateProRata('10', [{ key: 'a', weight: '0' }])).toThrow(CapMathError);
    expect(() => allocateProRata('10.5', [{ key: 'a', weight: '1' }])).toThrow(CapMathError);
    expect(() => allocateProRata('-1', [{ key: 'a', weight: '1' }])).toThrow(CapMathError);
  });
});
