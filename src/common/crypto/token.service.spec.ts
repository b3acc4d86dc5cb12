import { createHash, randomBytes } from 'node:crypto';
import { Clock } from '../time/clock';
import { SecretBox } from './secret-box';
import { TokenService } from './token.service';

describe('TokenService', () => {
  const clock = new (class extends Clock {
    at = Date.parse('2026-12-01T09:00:00Z');
    override nowMs() {
      return this.at;
    }
  })();
  const tokens = new TokenService(new SecretBox(randomBytes(32)), clock);

  it('issues 32 random bytes, stored as their SHA-256', () => {
    const t = tokens.issueToken(60_000);
    expect(Buffer.from(t.value, 'base64url')).toHaveLength(32);
    expect(t.digest).toBe(createHash('sha256').update(t.value).digest('hex'));
    expect(t.expiresAt.getTime()).toBe(clock.at + 60_000);
    expect(tokens.issueToken(1).value).not.toBe(tokens.issueToken(1).value);
    expect(tokens.issueToken(1, 'hex').value).toMatch(/^[0-9a-f]{64}$/);
  });

  it('issues numeric codes stored as keyed digests, per purpose', () => {
    const c = tokens.issueCode('verify', 1000);
    expect(c.value).toMatch(/^\d{6}$/);
    expect(tokens.matches(c.digest, tokens.codeDigest('verify', c.value))).toBe(true);
    expect(tokens.matches(c.digest, tokens.codeDigest('other', c.value))).toBe(false);
    // Another key gives other digests: a stolen database alone does not reveal codes.
    const other = new TokenService(new SecretBox(randomBytes(32)), clock);
    expect(other.codeDigest('verify', c.value)).not.toBe(c.digest);
  });

  it('decides expiry on the clock', () => {
    const expiresAt = tokens.issueCode('verify', 1000).expiresAt;
    expect(tokens.isLive(expiresAt)).toBe(true);
    clock.at += 999;
    expect(tokens.isLive(expiresAt)).toBe(true);
    clock.at += 1;
    expect(tokens.isLive(expiresAt)).toBe(false);
  });
});
