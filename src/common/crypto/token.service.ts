import { createHash, randomBytes, randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../time/clock';
import { constantTimeEqual, SecretBox } from './secret-box';

export interface IssuedSecret {
  /** What the user receives (mail, link); never stored. */
  value: string;
  /** What is stored and looked up. */
  digest: string;
  expiresAt: Date;
}

/**
 * Every single-use secret we mail out: invitation and magic-link tokens (32 random bytes, stored
 * as their SHA-256) and e-mail verification codes (a few digits, stored as a keyed HMAC because a
 * plain hash of a million possible codes falls to anyone holding the database). Digests are
 * compared in constant time; expiry is decided here too, on the Clock.
 */
@Injectable()
export class TokenService {
  constructor(
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** 32 random bytes, base64url by default (hex where the spec says so, e.g. magic links). */
  issueToken(lifetimeMs: number, encoding: 'base64url' | 'hex' = 'base64url'): IssuedSecret {
    const value = randomBytes(32).toString(encoding);
    return { value, digest: this.tokenDigest(value), expiresAt: this.clock.after(lifetimeMs) };
  }

  /** SHA-256 (hex) of a token: the stored form, and the key it is looked up by. */
  tokenDigest(token: string): string {
    return createHash('sha256').update(token, 'utf8').digest('hex');
  }

  /** A numeric code of `digits` digits for `purpose` (each purpose has its own HMAC key). */
  issueCode(purpose: string, lifetimeMs: number, digits = 6): IssuedSecret {
    const value = String(randomInt(0, 10 ** digits)).padStart(digits, '0');
    return {
      value,
      digest: this.codeDigest(purpose, value),
      expiresAt: this.clock.after(lifetimeMs),
    };
  }

  codeDigest(purpose: string, code: string): string {
    return this.box.digest(purpose, code);
  }

  /** Constant-time comparison of two digests. */
  matches(storedDigest: string, candidateDigest: string): boolean {
    return constantTimeEqual(storedDigest, candidateDigest);
  }

  isLive(expiresAt: Date): boolean {
    return expiresAt.getTime() > this.clock.nowMs();
  }
}
