import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Address } from './addresses/address.entity';
import { LegalEntity } from './entities/legal-entity.entity';
import { Profile } from './profiles/profile.entity';

/** Creates the personal entity, profile and address every user has, inside the caller's transaction. */
@Injectable()
export class PersonalRecordsService {
  async createForUser(
    manager: EntityManager,
    person: { userId: string; email: string; name?: string | null },
  ): Promise<{ entityId: string; profileId: string }> {
    const [firstName, ...rest] = (person.name ?? '').trim().split(/\s+/).filter(Boolean);
    const entity = await manager.save(
      manager.create(LegalEntity, {
        kind: 'person',
        name: person.name?.trim() || person.email,
        email: person.email,
      }),
    );
    const address = await manager.save(manager.create(Address, { userId: person.userId }));
    const profile = await manager.save(
      manager.create(Profile, {
        userId: person.userId,
        addressId: address.id,
        firstName: firstName ?? null,
        lastName: rest.join(' ') || null,
      }),
    );
    return { entityId: entity.id, profileId: profile.id };
  }
}
