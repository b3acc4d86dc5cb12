import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InTransaction } from '../database';
import { AddressRepository, LegalEntityRepository, ProfileRepository } from './records.repository';

/**
 * Creates the legal entities, profiles and addresses other modules need, inside the caller's
 * transaction: a user's personal records at sign-up, an organization's own entity and registered
 * address, the entity of a member who has no account; sets a profile's avatar to an image
 * uploaded for it (documents module); and tells whose personal entity an entity is.
 */
@Injectable()
export class LegalRecordsService {
  constructor(
    private readonly entities: LegalEntityRepository,
    private readonly profiles: ProfileRepository,
    private readonly addresses: AddressRepository,
  ) {}

  async createPersonal(
    tx: InTransaction,
    person: { userId: string; email: string; name?: string | null },
  ): Promise<{ entityId: string; profileId: string }> {
    const [firstName, ...rest] = (person.name ?? '').trim().split(/\s+/).filter(Boolean);
    const entity = await this.entities.add(
      {
        kind: 'person',
        name: person.name?.trim() || person.email,
        email: person.email,
        ownerUserId: person.userId,
      },
      tx,
    );
    const address = await this.addresses.add({ userId: person.userId }, tx);
    const profile = await this.profiles.add(
      {
        userId: person.userId,
        addressId: address.id,
        firstName: firstName ?? null,
        lastName: rest.join(' ') || null,
      },
      tx,
    );
    return { entityId: entity.id, profileId: profile.id };
  }

  /** An organization's own entity; made before the organization row, which refers to it. */
  async createOrganizationEntity(
    tx: InTransaction,
    organization: { id: string; name: string },
  ): Promise<string> {
    const entity = await this.entities.add(
      {
        kind: 'organization',
        name: organization.name,
        email: null,
        organizationId: organization.id,
      },
      tx,
    );
    return entity.id;
  }

  /** An organization's registered address; made after the organization row it belongs to. */
  async createOrganizationAddress(
    tx: InTransaction,
    organization: { id: string; country: string | null },
  ): Promise<string> {
    const address = await this.addresses.add(
      { organizationId: organization.id, country: organization.country },
      tx,
    );
    return address.id;
  }

  /** The entity of a person recorded in an organization without (yet) an account. */
  async createForMember(
    tx: InTransaction,
    person: { name: string; email: string | null },
  ): Promise<string> {
    const entity = await this.entities.add({ kind: 'person', ...person }, tx);
    return entity.id;
  }

  /**
   * The entities of many people recorded at once (the new holders of a cap table import), in
   * the order given: one INSERT, not one per person.
   */
  async createForMembers(
    tx: InTransaction,
    people: { name: string; email: string | null }[],
  ): Promise<string[]> {
    const rows = people.map((p) => ({ id: randomUUID(), name: p.name, email: p.email }));
    if (rows.length) await this.entities.addPeople(rows, tx);
    return rows.map((r) => r.id);
  }

  /**
   * The user whose personal entity this is (null for an organization's, or a member's without an
   * account) and the organization whose own entity it is; null when there is no such entity.
   */
  async entityOwner(
    id: string,
  ): Promise<{ ownerUserId: string | null; organizationId: string | null } | null> {
    const entity = await this.entities.findById(id);
    return entity && { ownerUserId: entity.ownerUserId, organizationId: entity.organizationId };
  }

  /** Makes the uploaded image `fileId` the profile's avatar (in the upload's transaction). */
  setAvatar(tx: InTransaction, profileId: string, fileId: string): Promise<void> {
    return this.profiles.setAvatar(profileId, fileId, tx);
  }
}
