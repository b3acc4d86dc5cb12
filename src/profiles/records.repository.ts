import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../database';
import { Address } from './addresses/address.entity';
import { LegalEntity } from './entities/legal-entity.entity';
import { Profile } from './profiles/profile.entity';

@Injectable()
export class LegalEntityRepository extends AggregateRepository<LegalEntity> {
  constructor(@InjectRepository(LegalEntity) entities: Repository<LegalEntity>) {
    super(entities);
  }

  /** People's entities in one statement (ids chosen by the caller): thousands at a time. */
  async addPeople(
    people: { id: string; name: string; email: string | null }[],
    tx: InTransaction,
  ): Promise<void> {
    await tx.manager.query(
      `INSERT INTO entity (id, kind, name, email)
       SELECT t.id, 'person', t.name, t.email
       FROM unnest($1::uuid[], $2::varchar[], $3::varchar[]) AS t(id, name, email)`,
      [people.map((p) => p.id), people.map((p) => p.name), people.map((p) => p.email)],
    );
  }
}

@Injectable()
export class ProfileRepository extends AggregateRepository<Profile> {
  constructor(@InjectRepository(Profile) profiles: Repository<Profile>) {
    super(profiles);
  }

  async setAvatar(id: string, fileId: string, tx: InTransaction): Promise<void> {
    await this.repo(tx).update({ id }, { avatarFileId: fileId });
  }
}

@Injectable()
export class AddressRepository extends AggregateRepository<Address> {
  constructor(@InjectRepository(Address) addresses: Repository<Address>) {
    super(addresses);
  }

  /** The user's personal address (the first one made for them). */
  async personalOf(userId: string, tx?: InTransaction): Promise<string | null> {
    const address = await this.repo(tx).findOne({
      where: { userId },
      select: { id: true },
      order: { created: 'ASC' },
    });
    return address?.id ?? null;
  }
}
