import { centsToDecimal, decimalToCents, normalizeDecimal } from './money';

describe('money', () => {
  it('writes cents as a two-decimal string, signed', () => {
    expect(centsToDecimal(4900)).toBe('49.00');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(0)).toBe('0.00');
    expect(centsToDecimal(-525)).toBe('-5.25');
    expect(centsToDecimal(-5)).toBe('-0.05');
    expect(centsToDecimal(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
  });

  it('refuses cents that are not a safe integer', () => {
    expect(() => centsToDecimal(1.5)).toThrow(RangeError);
    expect(() => centsToDecimal(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
    expect(() => centsToDecimal(NaN)).toThrow(RangeError);
  });

  it('reads a decimal string or number with at most two decimals, exactly', () => {
    expect(decimalToCents('49.00')).toBe(4900);
    expect(decimalToCents('49')).toBe(4900);
    expect(decimalToCents('49.5')).toBe(4950);
    expect(decimalToCents(' 0.07 ')).toBe(7);
    expect(decimalToCents('-12.34')).toBe(-1234);
    expect(decimalToCents('-0')).toBe(0);
    expect(decimalToCents(0.1)).toBe(10);
    expect(decimalToCents(19.99)).toBe(1999);
    expect(decimalToCents(-3)).toBe(-300);
    // 1.15 * 100 is 114.99999999999999 as a float; read as text it is 115.
    expect(decimalToCents(1.15)).toBe(115);
  });

  it('refuses more than two decimals, exponents, blanks and other text', () => {
    for (const bad of ['1.005', '0.1e1', '', ' ', '.5', '5.', '+5', '1,00', 'abc', '--1', '1e21']) {
      expect(decimalToCents(bad)).toBeUndefined();
    }
    expect(decimalToCents(0.1 + 0.2)).toBeUndefined();
    expect(decimalToCents(1e21)).toBeUndefined();
    expect(decimalToCents(NaN)).toBeUndefined();
    expect(decimalToCents(Infinity)).toBeUndefined();
    expect(decimalToCents('900719925474099.99')).toBeUndefined();
  });

  it('round-trips every amount', () => {
    for (const cents of [0, 1, 10, 99, 100, 101, 4900, -1, -100, 123456789]) {
      expect(decimalToCents(centsToDecimal(cents))).toBe(cents);
    }
  });

  it("puts the provider's decimals in the two-decimal form", () => {
    expect(normalizeDecimal('49.0')).toBe('49.00');
    expect(normalizeDecimal('1.5')).toBe('1.50');
    expect(normalizeDecimal('-10.0')).toBe('-10.00');
    expect(normalizeDecimal(2)).toBe('2.00');
    expect(normalizeDecimal('0.125')).toBeUndefined();
  });
});
