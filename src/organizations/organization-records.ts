import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Member } from './members/member.entity';
import { Organization } from './organizations/organization.entity';
import { RecordResolvers } from './permissions/record-resolvers';
import { builtInRole } from './permissions/permissions';
import { Role } from './roles/role.entity';
import { LegalEntity } from './entities/legal-entity.entity';
import { User } from '../auth/users/user.entity';

/** Teaches the permission guard where members, roles and entities belong. */
@Injectable()
export class OrganizationRecords implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly resolvers: RecordResolvers,
  ) {}

  onModuleInit() {
    this.resolvers.register('member', async (id) => {
      const member = await this.dataSource.getRepository(Member).findOneBy({ id });
      if (!member || member.status === 'removed') return null;
      return { organizationId: member.organizationId, ownerUserId: member.userId };
    });
    this.resolvers.register('role', async (id, req) => {
      // Built-in roles belong to every organization.
      if (builtInRole(id))
        return { organizationId: (req.params.organization as string | undefined) ?? null };
      const role = await this.dataSource.getRepository(Role).findOneBy({ id });
      return role ? { organizationId: role.organizationId } : null;
    });
    this.resolvers.register('entity', async (id) => {
      const entity = await this.dataSource.getRepository(LegalEntity).findOneBy({ id });
      if (!entity) return null;
      const org = await this.dataSource.getRepository(Organization).findOneBy({ entityId: id });
      if (org) return { organizationId: org.id };
      const user = await this.dataSource.getRepository(User).findOneBy({ entityId: id });
      return { organizationId: null, ownerUserId: user?.id ?? null };
    });
  }
}
