import {
  createHash,
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Reads ENCRYPTION_KEY: 32 bytes written as 64 hex characters or as base64. */
export function parseKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, 'hex')
    : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('ENCRYPTION_KEY must be 32 bytes');
  return key;
}

/**
 * Secrets at rest (TOTP secrets, provider tokens): AES-256-GCM with a fresh 96-bit IV per message
 * and the 128-bit tag checked on decryption, so a tampered value is refused rather than misread.
 * Output: `v1.<iv>.<tag>.<ciphertext>` in base64url. `digest()` gives keyed hashes (HMAC-SHA256
 * with a sub-key per purpose) for short values such as e-mail codes, which a plain hash would not
 * protect against a stolen database.
 */
export class SecretBox {
  private readonly encryptionKey: Buffer;
  private readonly masterKey: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.masterKey = Buffer.from(key);
    this.encryptionKey = this.subKey('aes-256-gcm');
  }

  encrypt(plaintext: string, associatedData?: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv, {
      authTagLength: TAG_BYTES,
    });
    if (associatedData) cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, ciphertext]
      .map((p) => (typeof p === 'string' ? p : b64(p)))
      .join('.');
  }

  /** Throws when the value was not produced by this key (or with other associated data). */
  decrypt(sealed: string, associatedData?: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) {
      throw new Error('not a sealed value');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, unb64(iv), {
      authTagLength: TAG_BYTES,
    });
    if (associatedData) decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(unb64(tag));
    return Buffer.concat([decipher.update(unb64(ciphertext)), decipher.final()]).toString('utf8');
  }

  /** A keyed hash (hex) of `value` for `purpose`; equal inputs give equal digests. */
  digest(purpose: string, value: string): string {
    return createHmac('sha256', this.subKey(`digest:${purpose}`))
      .update(value, 'utf8')
      .digest('hex');
  }

  /**
   * A keyed fingerprint of the key: HMAC-SHA256 of a fixed label under a sub-key of it. Equal for
   * equal keys, so processes can tell whether they hold the same key; it reveals nothing of the
   * key (unlike a plain hash, it cannot be checked against guessed keys without the HMAC key).
   */
  fingerprint(): string {
    return this.digest('key-fingerprint', 'ledgerline encryption key');
  }

  private subKey(info: string): Buffer {
    return Buffer.from(
      hkdfSync('sha256', this.masterKey, Buffer.alloc(0), `ledgerline:${info}`, 32),
    );
  }
}

/**
 * Compares two strings (bearer tokens, codes) in time independent of where they differ and of
 * their lengths: both sides are hashed (SHA-256) first, so the comparison is always of 32 bytes
 * and a wrong guess's length says nothing about the secret's.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

const b64 = (buf: Buffer) => buf.toString('base64url');
const unb64 = (text: string) => Buffer.from(text, 'base64url');
