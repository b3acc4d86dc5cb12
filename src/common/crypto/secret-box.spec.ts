import { createHash, randomBytes } from 'node:crypto';
import { constantTimeEqual, parseKey, SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips a secret and never shows the plaintext', () => {
    const sealed = box.encrypt('JBSWY3DPEHPK3PXP');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.decrypt(sealed)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('uses a fresh IV each time', () => {
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('refuses a tampered value', () => {
    const [v, iv, tag, ct] = box.encrypt('secret value').split('.');
    const flipped = Buffer.from(ct, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.decrypt([v, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => box.decrypt('garbage')).toThrow('not a sealed value');
  });

  it('refuses a value sealed with another key or other associated data', () => {
    const other = new SecretBox(randomBytes(32));
    expect(() => other.decrypt(box.encrypt('x'))).toThrow();
    const bound = box.encrypt('x', 'user-1');
    expect(box.decrypt(bound, 'user-1')).toBe('x');
    expect(() => box.decrypt(bound, 'user-2')).toThrow();
  });

  it('gives keyed digests that differ per purpose and per key', () => {
    expect(box.digest('code', '123456')).toBe(box.digest('code', '123456'));
    expect(box.digest('code', '123456')).not.toBe(box.digest('other', '123456'));
    expect(new SecretBox(randomBytes(32)).digest('code', '123456')).not.toBe(
      box.digest('code', '123456'),
    );
  });

  it('fingerprints its key: equal for the same key, neither the key nor its plain hash', () => {
    const key = randomBytes(32);
    const fingerprint = new SecretBox(key).fingerprint();
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(new SecretBox(Buffer.from(key)).fingerprint()).toBe(fingerprint);
    expect(new SecretBox(randomBytes(32)).fingerprint()).not.toBe(fingerprint);
    expect(fingerprint).not.toBe(key.toString('hex'));
    expect(fingerprint).not.toBe(createHash('sha256').update(key).digest('hex'));
  });

  it('parses hex and base64 keys of 32 bytes only', () => {
    expect(parseKey('0'.repeat(63) + '1')).toHaveLength(32);
    expect(parseKey(randomBytes(32).toString('base64'))).toHaveLength(32);
    expect(() => parseKey('abcd')).toThrow();
  });
});

describe('constantTimeEqual', () => {
  it('compares strings of any length', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('abc', '')).toBe(false);
    expect(constantTimeEqual('é', 'e\u0301')).toBe(false);
  });
});
