import { join } from 'node:path';
import { sourceTexts } from '../../../test/support/sources';
import { GENERAL_KINDS } from './domain-error';
import { ERROR_CATALOGUE } from './error-catalogue';

/** Keys of spec section 7 that wait for the feature that raises them. */
const RESERVED: Record<string, string> = {};

describe('the error catalogue is what the code uses', () => {
  const code = sourceTexts(join(__dirname, '..', '..')).join('\n');
  const used = new Set([
    ...[...code.matchAll(/DomainError\.keyed\(\s*'(\w+)'/g)].map((m) => m[1]),
    ...[...code.matchAll(/new DomainError\(\s*'(\w+)'/g)].map((m) => m[1]),
    ...[...code.matchAll(/ERROR_CATALOGUE\.(\w+)/g)].map((m) => m[1]),
  ]);

  it('has no entry that nothing raises (besides the reserved ones)', () => {
    const unused = Object.keys(ERROR_CATALOGUE).filter((k) => !used.has(k) && !(k in RESERVED));
    expect(unused).toEqual([]);
  });

  it('has every key the code raises', () => {
    const general: readonly string[] = GENERAL_KINDS;
    const missing = [...used].filter((k) => !(k in ERROR_CATALOGUE) && !general.includes(k));
    expect(missing).toEqual([]);
  });

  it('reserves only keys that are still unused', () => {
    expect(Object.keys(RESERVED).filter((k) => used.has(k))).toEqual([]);
  });
});
