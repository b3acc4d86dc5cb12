import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ReferralCodesRepository } from '../store/referral-codes.repository';

/** Letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L). */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const LENGTH = 10;

/** A code as users type it: trimmed, upper-case; undefined when it cannot be one of ours. */
export const normalizeReferralCode = (code: string | null | undefined): string | undefined => {
  const text = code?.trim().toUpperCase();
  return text && text.length <= 32 ? text : undefined;
};

/** Each user's own referral code, made the first time it is asked for. */
@Injectable()
export class ReferralCodes {
  constructor(private readonly codes: ReferralCodesRepository) {}

  async codeOf(userId: string): Promise<string> {
    const existing = await this.codes.codeOf(userId);
    if (existing) return existing;
    // 31^10 codes: a clash is unlikely; a taken one is drawn again.
    for (let attempt = 0; attempt < 5; attempt++) {
      const code = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(
        '',
      );
      if (await this.codes.addCode(userId, code)) return (await this.codes.codeOf(userId))!;
    }
    throw new Error('no free referral code found');
  }

  /** The user whose code this is, if any. */
  async ownerOf(code: string | null | undefined): Promise<string | null> {
    const normalized = normalizeReferralCode(code);
    return normalized ? this.codes.ownerOf(normalized) : null;
  }
}
