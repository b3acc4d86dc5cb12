import { createHash } from 'node:crypto';
import { AnswerCache, SecretBox } from '../../common';
import type { Contact } from './people';

/** The associated data a user's kept contacts are sealed to: they open for that user only. */
const contactsAad = (userId: string) => `idp-contacts:${userId}`;

/** Names the grant an answer was read with, without keeping any of it. */
const grantTag = (grantVersion: string) =>
  createHash('sha256').update(grantVersion).digest('base64url');

/**
 * Each user's contacts as the provider last answered them, kept in Redis (shared by instances)
 * under the user's own key, sealed to that user (a value copied to another user's key opens for
 * no one) and bound to the grant they were read with: after a connect, or with no grant, an
 * entry is never answered, whatever was written meanwhile.
 */
export class ContactsCache {
  constructor(
    private readonly cache: AnswerCache,
    private readonly box: SecretBox,
  ) {}

  async get(userId: string, grantVersion: string): Promise<Contact[] | null> {
    const sealed = await this.cache.get(userId);
    if (sealed === null) return null;
    try {
      const kept = JSON.parse(this.box.decrypt(sealed, contactsAad(userId))) as {
        grant: string;
        contacts: Contact[];
      };
      return kept.grant === grantTag(grantVersion) ? kept.contacts : null;
    } catch {
      return null;
    }
  }

  set(userId: string, grantVersion: string, contacts: Contact[]): Promise<void> {
    const value = JSON.stringify({ grant: grantTag(grantVersion), contacts });
    return this.cache.set(userId, this.box.encrypt(value, contactsAad(userId)));
  }

  forget(userId: string): Promise<void> {
    return this.cache.delete(userId);
  }
}
