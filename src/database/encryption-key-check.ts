import type { DataSource } from 'typeorm';
import { constantTimeEqual } from '../common';

/** Said when this instance's ENCRYPTION_KEY is not the one the database's sealed values use. */
export class EncryptionKeyMismatch extends Error {
  constructor() {
    super(
      'ENCRYPTION_KEY is not the key this database is used with: every instance on one ' +
        'database must have the same ENCRYPTION_KEY (its fingerprint, kept in the database, ' +
        'differs from this one). With another key the secrets sealed at rest do not open, and ' +
        'a sealed grant that does not open is deleted. Start this instance with the key the ' +
        'other instances use.',
    );
    this.name = 'EncryptionKeyMismatch';
  }
}

/**
 * Refuses a key other than the one in use: the first instance to start on a database records
 * its key's fingerprint (of two starting together, the first insert wins and the other compares
 * with it); every later one compares. A refusal writes nothing.
 */
export async function checkEncryptionKey(db: DataSource, fingerprint: string): Promise<void> {
  await db.query(
    `INSERT INTO encryption_key_fingerprint (id, fingerprint) VALUES (1, $1)
     ON CONFLICT (id) DO NOTHING`,
    [fingerprint],
  );
  const [stored] = (await db.query(
    `SELECT fingerprint FROM encryption_key_fingerprint WHERE id = 1`,
  )) as { fingerprint: string }[];
  if (!constantTimeEqual(stored.fingerprint, fingerprint)) throw new EncryptionKeyMismatch();
}
