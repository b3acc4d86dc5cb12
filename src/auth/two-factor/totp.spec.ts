import { authenticator } from 'otplib';
import {
  generateTotpSecret,
  isFreshStep,
  matchTotpStep,
  stepAt,
  totpKeyUri,
  totpTokenAt,
} from './totp';

describe('TOTP', () => {
  const secret = generateTotpSecret();
  const now = Date.now();
  const step = stepAt(now);

  it('makes base32 secrets of 160 bits and otpauth URIs', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(totpKeyUri('a@b.test', secret)).toMatch(
      new RegExp(`^otpauth://totp/Ledgerline:a%40b\\.test\\?secret=${secret}&`),
    );
  });

  it('agrees with otplib on the current token', () => {
    expect(totpTokenAt(secret, stepAt(Date.now()))).toBe(authenticator.generate(secret));
  });

  it('accepts the tokens of the previous, current and next step, with their step', () => {
    expect(matchTotpStep(secret, totpTokenAt(secret, step - 1), now)).toBe(step - 1);
    expect(matchTotpStep(secret, totpTokenAt(secret, step), now)).toBe(step);
    expect(matchTotpStep(secret, totpTokenAt(secret, step + 1), now)).toBe(step + 1);
  });

  it('refuses tokens two steps away, malformed tokens and other secrets', () => {
    expect(matchTotpStep(secret, totpTokenAt(secret, step - 2), now)).toBeNull();
    expect(matchTotpStep(secret, totpTokenAt(secret, step + 2), now)).toBeNull();
    expect(matchTotpStep(secret, '12345', now)).toBeNull();
    expect(matchTotpStep(secret, 'abcdef', now)).toBeNull();
    expect(matchTotpStep(generateTotpSecret(), totpTokenAt(secret, step), now)).toBeNull();
  });

  describe('replay rule', () => {
    it('accepts any step when none was used', () => {
      expect(isFreshStep(step, null)).toBe(true);
    });
    it('refuses the step already used and earlier ones', () => {
      expect(isFreshStep(step, step)).toBe(false);
      expect(isFreshStep(step - 1, step)).toBe(false);
    });
    it('accepts a later step', () => {
      expect(isFreshStep(step + 1, step)).toBe(true);
    });
  });
});
