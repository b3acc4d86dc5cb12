import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../../database';
import { Organization } from './organization.entity';

/** Organizations; a deleted one is invisible to every read here. */
@Injectable()
export class OrganizationRepository extends AggregateRepository<Organization> {
  constructor(@InjectRepository(Organization) organizations: Repository<Organization>) {
    super(organizations);
  }

  find(id: string, tx?: InTransaction): Promise<Organization | null> {
    return this.repo(tx).findOneBy({ id, deletedAt: IsNull() });
  }

  /**
   * The organization row, locked: changes to its members are serialised on it, so two concurrent
   * demotions cannot both see another Owner left.
   */
  lock(id: string, tx: InTransaction): Promise<Organization | null> {
    return this.repo(tx).findOne({
      where: { id, deletedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** The organization whose own entity this is, unless deleted. */
  findByEntity(entityId: string): Promise<Organization | null> {
    return this.repository.findOneBy({ entityId, deletedAt: IsNull() });
  }

  /** Those of the ids whose organization is not deleted. */
  async live(ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.repository.find({
      where: { id: In(ids), deletedAt: IsNull() },
      select: { id: true },
    });
    return rows.map((o) => o.id);
  }

  async setAddress(id: string, addressId: string, tx: InTransaction): Promise<void> {
    await this.repo(tx).update({ id }, { addressId });
  }

  /** Organizations where the user is an active member, oldest first. */
  listForUser(userId: string): Promise<Organization[]> {
    return this.repository
      .createQueryBuilder('o')
      .innerJoin(
        'member',
        'm',
        "m.organization_id = o.id AND m.user_id = :userId AND m.status = 'active'",
        { userId },
      )
      .where('o.deleted_at IS NULL')
      .orderBy('o.created', 'ASC')
      .getMany();
  }
}
