import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { In, IsNull, Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../../database';
import { BUILT_IN_ROLES } from '../permissions/permissions';
import { Role } from './role.entity';

/** Built-in roles (no organization) and organizations' custom roles. */
@Injectable()
export class RoleRepository extends AggregateRepository<Role> {
  constructor(@InjectRepository(Role) roles: Repository<Role>) {
    super(roles);
  }

  /** The built-in roles and the organization's own, oldest first. */
  listFor(organizationId: string): Promise<Role[]> {
    return this.repository.find({
      where: [
        { organizationId: IsNull(), id: In(BUILT_IN_ROLES.map((r) => r.id)) },
        { organizationId },
      ],
      order: { created: 'ASC' },
    });
  }

  /** A role the organization may use: built-in or its own (deleted ones included with `withDeleted`). */
  findUsable(organizationId: string, id: string, tx?: InTransaction): Promise<Role | null> {
    if (!isUUID(id)) return Promise.resolve(null);
    return this.repo(tx).findOne({
      where: [
        { id, organizationId },
        { id, organizationId: IsNull() },
      ],
    });
  }

  /** A custom role of the organization by name, case-insensitively. */
  findByName(organizationId: string, name: string, tx?: InTransaction): Promise<Role | null> {
    return this.repo(tx)
      .createQueryBuilder('r')
      .where('r.organization_id = :organizationId AND lower(r.name) = lower(:name)', {
        organizationId,
        name,
      })
      .getOne();
  }

  lockCustom(organizationId: string, id: string, tx: InTransaction): Promise<Role | null> {
    return this.repo(tx).findOne({
      where: { id, organizationId },
      lock: { mode: 'pessimistic_write' },
    });
  }

  async softDelete(id: string, tx: InTransaction): Promise<void> {
    await this.repo(tx).softDelete(id);
  }
}
