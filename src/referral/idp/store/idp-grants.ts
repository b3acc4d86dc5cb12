import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SecretBox } from '../../../common';
import { IdpContactGrant } from './idp-contact-grant.entity';

/** What a grant holds, in the clear only in memory. */
export interface IdpGrant {
  accessToken: string;
  /** Null when the provider gave none (the access token then works until it expires). */
  refreshToken: string | null;
  /** When the access token expires (epoch ms); null when the provider did not say. */
  expiryDate: number | null;
  /** The connected account's e-mail; null when the provider did not share it. */
  email: string | null;
}

/** A stored grant and the sealed value it was read from (its version: each sealing differs). */
export interface StoredIdpGrant {
  grant: IdpGrant;
  version: string;
}

/** The associated data a user's sealed grant is bound to (a copied row opens for no one else). */
const grantAad = (userId: string) => `idp-contact-grant:${userId}`;

/** The users' sealed grants (`idp_contact_grant`). */
@Injectable()
export class IdpGrants {
  private readonly logger = new Logger('IdpContacts');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly box: SecretBox,
  ) {}

  /**
   * The user's grant. One that does not open (sealed with another key, or another user's row
   * copied here) is of no use to anyone: it is deleted, and the user has none.
   */
  async find(userId: string): Promise<StoredIdpGrant | null> {
    const row = await this.dataSource.manager.findOneBy(IdpContactGrant, { userId });
    if (!row) return null;
    let grant: IdpGrant;
    try {
      grant = JSON.parse(this.box.decrypt(row.grantCiphertext, grantAad(userId))) as IdpGrant;
    } catch {
      this.logger.warn(`the contacts grant of user ${userId} does not open: deleted`);
      await this.delete(userId, row.grantCiphertext);
      return null;
    }
    return { grant, version: row.grantCiphertext };
  }

  /** Stores the user's grant, replacing any. */
  async save(userId: string, grant: IdpGrant): Promise<void> {
    await this.dataSource.manager.upsert(
      IdpContactGrant,
      { userId, grantCiphertext: this.seal(userId, grant) },
      ['userId'],
    );
  }

  /**
   * Replaces the grant read as `version` (a refreshed token), unless another replaced it since;
   * answers the new version, or null when it was not replaced.
   */
  async replace(userId: string, version: string, grant: IdpGrant): Promise<string | null> {
    const sealed = this.seal(userId, grant);
    const result = await this.dataSource.manager.update(
      IdpContactGrant,
      { userId, grantCiphertext: version },
      { grantCiphertext: sealed },
    );
    return result.affected ? sealed : null;
  }

  /** Forgets the user's grant; with `version`, only the one read as that (not a newer one). */
  async delete(userId: string, version?: string): Promise<void> {
    await this.dataSource.manager.delete(IdpContactGrant, {
      userId,
      ...(version === undefined ? {} : { grantCiphertext: version }),
    });
  }

  private seal(userId: string, grant: IdpGrant): string {
    return this.box.encrypt(JSON.stringify(grant), grantAad(userId));
  }
}
