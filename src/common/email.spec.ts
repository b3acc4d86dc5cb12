import { normalizeEmail } from './email';

describe('normalizeEmail', () => {
  it('ignores case and surrounding white space', () => {
    expect(normalizeEmail('  Ada.Lovelace@Example.COM \n')).toBe('ada.lovelace@example.com');
    expect(normalizeEmail('\u00a0bob@example.com\u00a0')).toBe('bob@example.com');
  });

  it('gives one spelling to composed and decomposed Unicode', () => {
    const composed = 'Jos\u00e9@Example.com';
    const decomposed = 'Jose\u0301@example.com';
    expect(normalizeEmail(composed)).toBe(normalizeEmail(decomposed));
    expect(normalizeEmail(decomposed)).toBe('jos\u00e9@example.com');
  });

  it('keeps what makes addresses different', () => {
    expect(normalizeEmail('a+tag@example.com')).toBe('a+tag@example.com');
    expect(normalizeEmail('a.b@example.com')).not.toBe(normalizeEmail('ab@example.com'));
  });
});
