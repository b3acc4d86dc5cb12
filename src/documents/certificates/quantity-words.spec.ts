import {
  numberInFigures,
  numberInWords,
  quantityInWords,
  wholeNumberInWords,
} from './quantity-words';

describe('quantities in words', () => {
  it.each([
    ['0', 'Zero'],
    ['1', 'One'],
    ['13', 'Thirteen'],
    ['19', 'Nineteen'],
    ['20', 'Twenty'],
    ['21', 'Twenty-One'],
    ['99', 'Ninety-Nine'],
    ['100', 'One Hundred'],
    ['101', 'One Hundred One'],
    ['110', 'One Hundred Ten'],
    ['999', 'Nine Hundred Ninety-Nine'],
    ['1000', 'One Thousand'],
    ['1001', 'One Thousand One'],
    ['1250', 'One Thousand Two Hundred Fifty'],
    ['10000', 'Ten Thousand'],
    ['100000', 'One Hundred Thousand'],
    ['1000000', 'One Million'],
    ['1000001', 'One Million One'],
    [
      '2147483648',
      'Two Billion One Hundred Forty-Seven Million Four Hundred Eighty-Three Thousand Six Hundred Forty-Eight',
    ],
    ['1000000000000', 'One Trillion'],
    ['007', 'Seven'],
  ])('%s → %s', (digits, words) => {
    expect(wholeNumberInWords(digits)).toBe(words);
  });

  it('writes every digit of the largest quantity a holding stores (28 whole digits)', () => {
    const scales = ['Septillion', 'Sextillion', 'Quintillion', 'Quadrillion', 'Trillion'];
    const rest = [...scales, 'Billion', 'Million', 'Thousand'].map(
      (scale) => `Nine Hundred Ninety-Nine ${scale}`,
    );
    expect(wholeNumberInWords('9'.repeat(28))).toBe(
      ['Nine Octillion', ...rest, 'Nine Hundred Ninety-Nine'].join(' '),
    );
    expect(wholeNumberInWords('123456789012345678901')).toBe(
      'One Hundred Twenty-Three Quintillion Four Hundred Fifty-Six Quadrillion Seven Hundred ' +
        'Eighty-Nine Trillion Twelve Billion Three Hundred Forty-Five Million Six Hundred ' +
        'Seventy-Eight Thousand Nine Hundred One',
    );
  });

  it.each([
    ['0.5', 'Zero and 5/10'],
    ['1250.5', 'One Thousand Two Hundred Fifty and 5/10'],
    ['1250.50', 'One Thousand Two Hundred Fifty and 5/10'],
    ['0.25', 'Zero and 25/100'],
    ['3.05', 'Three and 5/100'],
    ['2.0000000001', 'Two and 1/10000000000'],
    ['42.000', 'Forty-Two'],
  ])('decimal %s → %s', (decimal, words) => {
    expect(numberInWords(decimal)).toBe(words);
  });

  it.each([
    ['0', '0'],
    ['999', '999'],
    ['1250', '1,250'],
    ['1000000', '1,000,000'],
    ['2147483648', '2,147,483,648'],
    ['1250.5', '1,250.5'],
    ['1234567.125', '1,234,567.125'],
  ])('figures %s → %s', (decimal, figures) => {
    expect(numberInFigures(decimal)).toBe(figures);
  });

  it('states a quantity in words and figures, with the unit singular only for exactly one', () => {
    expect(quantityInWords('1250', 'share')).toBe('One Thousand Two Hundred Fifty (1,250) shares');
    expect(quantityInWords('1', 'share')).toBe('One (1) share');
    expect(quantityInWords('1.5', 'unit')).toBe('One and 5/10 (1.5) units');
    expect(quantityInWords('0', 'share')).toBe('Zero (0) shares');
  });

  it.each(['-1', '1e5', '', '1.', '.5', '1,000', 'NaN', '1'.repeat(37)])('refuses %p', (text) => {
    expect(() => numberInWords(text)).toThrow(RangeError);
  });
});
