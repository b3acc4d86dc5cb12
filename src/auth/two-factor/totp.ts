import { authenticator } from 'otplib';
import { constantTimeEqual } from '../../common';

/**
 * TOTP of RFC 6238 through otplib: SHA-1, 6 digits, 30-second steps, tokens of the previous and
 * the next step accepted for clock drift. A token is tied to its step, and a step once accepted
 * (or any earlier one) is refused afterwards, so an observed token cannot be replayed.
 */
export const STEP_SECONDS = 30;
export const DRIFT_STEPS = 1;
export const ISSUER = 'Ledgerline';

const base = authenticator.clone({ step: STEP_SECONDS, digits: 6 });

/** 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export const generateTotpSecret = () => base.generateSecret(20);

export const totpKeyUri = (account: string, secret: string) => base.keyuri(account, ISSUER, secret);

export const stepAt = (nowMs: number) => Math.floor(nowMs / 1000 / STEP_SECONDS);

/** The token for a given step (tests and tools). */
export const totpTokenAt = (secret: string, step: number) =>
  base.clone({ epoch: step * STEP_SECONDS * 1000 }).generate(secret);

/** The step (within ±DRIFT_STEPS of now) whose token `token` is, or null. */
export function matchTotpStep(secret: string, token: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(token)) return null;
  const current = stepAt(nowMs);
  let matched: number | null = null;
  // Every candidate is compared, in constant time, whatever matches first.
  for (let step = current - DRIFT_STEPS; step <= current + DRIFT_STEPS; step++) {
    if (constantTimeEqual(totpTokenAt(secret, step), token) && matched === null) matched = step;
  }
  return matched;
}

/** The replay rule: only a step later than the last one accepted. */
export const isFreshStep = (step: number, lastUsedStep: number | null) =>
  lastUsedStep === null || step > lastUsedStep;
