import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

/**
 * argon2id with OWASP's minimum profile (m = 19 MiB, t = 2, p = 1). The parameters are stored in
 * every hash, so raising them later only affects new hashes.
 */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

@Injectable()
export class PasswordHasher {
  /** Verified against when there is no account, so unknown addresses cost the same time. */
  private dummy?: Promise<string>;

  hash(password: string): Promise<string> {
    return argon2.hash(password, ARGON2_OPTIONS);
  }

  /** False for a missing hash, a wrong password or a malformed hash; never throws. */
  async verify(hash: string | null | undefined, password: string): Promise<boolean> {
    if (!hash) {
      await this.burn(password);
      return false;
    }
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /** Spends one verification's worth of time on nothing. */
  async burn(password: string): Promise<void> {
    this.dummy ??= this.hash('dummy password for timing equalisation');
    await argon2.verify(await this.dummy, password).catch(() => false);
  }
}
