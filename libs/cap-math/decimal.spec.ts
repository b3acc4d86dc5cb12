import Decimal from 'decimal.js';
import { D, floorToWhole, isWholeNumber, sum, toDecimal, toDecimalString } from './decimal';
import { CapMathError } from './errors';

describe('toDecimal', () => {
  it('parses plain decimal strings exactly', () => {
    expect(toDecimal('1200').toFixed()).toBe('1200');
    expect(toDecimal('-4.50').toFixed()).toBe('-4.5');
    expect(toDecimal('.25').toFixed()).toBe('0.25');
    expect(toDecimal('0.000000000000000000000000000001').toFixed()).toBe(
      '0.000000000000000000000000000001',
    );
  });

  it('converts a JS number from its text, not its binary value', () => {
    expect(toDecimal(0.1).toFixed()).toBe('0.1');
    expect(toDecimal(0.1 + 0.2).toFixed()).toBe('0.30000000000000004');
    expect(toDecimal(1e21).toFixed()).toBe('1000000000000000000000');
    expect(toDecimal(-0).toFixed()).toBe('0');
  });

  it('copies Decimal instances from any Decimal configuration', () => {
    const Global = Decimal.clone({ precision: 5 });
    expect(toDecimal(new Global('123.456789')).toFixed()).toBe('123.456789');
  });

  it.each([
    '',
    ' 1',
    '1 ',
    '1e5',
    '1E-3',
    'NaN',
    'Infinity',
    '-Infinity',
    '1,000',
    '0x10',
    '1.',
    '--1',
    '+',
  ])('rejects the string %j', (text) => {
    expect(() => toDecimal(text)).toThrow(CapMathError);
  });

  it.each([NaN, Infinity, -Infinity])('rejects the number %p', (n) => {
    expect(() => toDecimal(n)).toThrow(CapMathError);
  });

  it('rejects non-finite Decimals and non-numbers', () => {
    expect(() => toDecimal(new Decimal(NaN))).toThrow(CapMathError);
    expect(() => toDecimal(new Decimal(Infinity))).toThrow(CapMathError);
    expect(() => toDecimal(null as unknown as string)).toThrow(CapMathError);
  });
});

describe('D (the private Decimal)', () => {
  it('keeps 60 significant digits and rounds half up whatever the global config says', () => {
    Decimal.set({ precision: 5, rounding: Decimal.ROUND_DOWN });
    try {
      expect(new D(2).div(3).toFixed()).toBe('0.' + '6'.repeat(59) + '7');
      expect(new D('2.5').toDecimalPlaces(0).toFixed()).toBe('3');
    } finally {
      Decimal.set({ precision: 20, rounding: Decimal.ROUND_HALF_UP });
    }
  });
});

describe('toDecimalString', () => {
  it('prints plain notation with trailing zeros trimmed', () => {
    expect(toDecimalString(new D('1200'))).toBe('1200');
    expect(toDecimalString(new D('4.500'))).toBe('4.5');
    expect(toDecimalString(new D('0.000001'))).toBe('0.000001');
    expect(toDecimalString(new D('1e-7'))).toBe('0.0000001');
    expect(toDecimalString(new D('1.5e30'))).toBe('1500000000000000000000000000000');
    expect(toDecimalString(new D('-0'))).toBe('0');
    expect(toDecimalString(new D('-12.340'))).toBe('-12.34');
  });

  it('prints Decimals from other configurations without exponent notation', () => {
    expect(toDecimalString(new Decimal('1e-9'))).toBe('0.000000001');
  });

  it('rejects non-finite values', () => {
    expect(() => toDecimalString(new D(NaN))).toThrow(CapMathError);
  });
});

describe('isWholeNumber', () => {
  it('tells whole numbers from fractions', () => {
    expect(isWholeNumber(new D('18'))).toBe(true);
    expect(isWholeNumber(new D('18.000'))).toBe(true);
    expect(isWholeNumber(new D('-3'))).toBe(true);
    expect(isWholeNumber(new D('4.5'))).toBe(false);
    expect(isWholeNumber(new D(Infinity))).toBe(false);
  });
});

describe('sum', () => {
  it('adds mixed inputs exactly', () => {
    expect(sum(['0.1', 0.2, new D('0.3')]).toFixed()).toBe('0.6');
    expect(sum([]).toFixed()).toBe('0');
  });

  it('validates every value', () => {
    expect(() => sum(['1', 'x'])).toThrow(CapMathError);
  });
});

describe('floorToWhole', () => {
  it('rounds down to whole shares', () => {
    expect(floorToWhole(new D('588235.294')).toFixed()).toBe('588235');
    expect(floorToWhole(new D('7')).toFixed()).toBe('7');
  });

  it('does not lose a share to 60-digit division noise', () => {
    const third = new D(1).div(3);
    expect(third.times(3).toFixed()).not.toBe('1');
    expect(floorToWhole(third.times(3)).toFixed()).toBe('1');
  });
});
