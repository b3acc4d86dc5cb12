import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { IdpGrant, IdpGrantSeal, StoredIdpGrant } from '../../../auth';
import { IdpContactGrant } from './idp-contact-grant.entity';

/** The associated data a user's sealed grant is bound to (a copied row opens for no one else). */
const grantAad = (userId: string) => `idp-contact-grant:${userId}`;

/** The users' sealed grants (`idp_contact_grant`). */
@Injectable()
export class IdpGrants {
  private readonly logger = new Logger('IdpContacts');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly seal: IdpGrantSeal,
  ) {}

  /**
   * The user's grant. One that does not open (sealed with another key, or another user's row
   * copied here) is of no use to anyone: it is deleted, and the user has none.
   */
  async find(userId: string): Promise<StoredIdpGrant | null> {
    const row = await this.dataSource.manager.findOneBy(IdpContactGrant, { userId });
    if (!row) return null;
    const grant = this.seal.open(row.grantCiphertext, grantAad(userId));
    if (!grant) {
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
      { userId, grantCiphertext: this.seal.seal(grant, grantAad(userId)) },
      ['userId'],
    );
  }

  /**
   * Replaces the grant read as `version` (a refreshed token), unless another replaced it since;
   * answers the new version, or null when it was not replaced.
   */
  async replace(userId: string, version: string, grant: IdpGrant): Promise<string | null> {
    const sealed = this.seal.seal(grant, grantAad(userId));
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
}

export type { IdpGrant, StoredIdpGrant };
