import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { previousAttributes, OutboxService } from '../../common/events/outbox.service';
import { User } from '../../auth/users/user.entity';
import { Address } from '../addresses/address.entity';
import { LegalEntity } from '../entities/legal-entity.entity';
import { Member } from '../members/member.entity';
import { OWNER_ROLE_ID } from '../permissions/permissions';
import { CreateOrganizationDto, UpdateOrganizationDto } from './organization.dto';
import { Organization } from './organization.entity';
import { OrganizationView, toOrganizationView } from './organization.view';
import { HttpError } from '../../common/errors/app-error';

@Injectable()
export class OrganizationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  /** Creates the organization, its entity and address, and makes the creator its Owner. */
  create(userId: string, dto: CreateOrganizationDto): Promise<OrganizationView> {
    return this.dataSource.transaction(async (m) => {
      const user = await m.findOneByOrFail(User, { id: userId });
      const entity = await m.save(
        m.create(LegalEntity, {
          kind: 'organization',
          name: dto.legalName ?? dto.name,
          email: null,
        }),
      );
      const org = await m.save(
        m.create(Organization, {
          name: dto.name,
          legalName: dto.legalName ?? null,
          country: dto.country ?? null,
          currency: dto.currency ?? 'USD',
          type: dto.type ?? 'corporation',
          entityId: entity.id,
          createdBy: userId,
        }),
      );
      const address = await m.save(
        m.create(Address, { organizationId: org.id, country: org.country }),
      );
      org.addressId = address.id;
      await m.update(Organization, org.id, { addressId: address.id });
      const owner = await m.save(
        m.create(Member, {
          organizationId: org.id,
          userId,
          entityId: user.entityId,
          name: user.name ?? user.email,
          email: user.email,
          roleId: OWNER_ROLE_ID,
          status: 'active',
        }),
      );
      const view = toOrganizationView(org);
      await this.outbox.record(
        m,
        { type: 'organization.created', organizationId: org.id, actorUserId: userId, object: view },
        { type: 'member.added', organizationId: org.id, actorUserId: userId, object: owner },
      );
      return view;
    });
  }

  /** Organizations where the caller is an active member. */
  async listMine(userId: string): Promise<OrganizationView[]> {
    const orgs = await this.dataSource
      .getRepository(Organization)
      .createQueryBuilder('o')
      .innerJoin(
        Member,
        'm',
        "m.organization_id = o.id AND m.user_id = :userId AND m.status = 'active'",
        { userId },
      )
      .orderBy('o.created', 'ASC')
      .getMany();
    return orgs.map(toOrganizationView);
  }

  async get(id: string): Promise<OrganizationView> {
    const org = await this.dataSource.getRepository(Organization).findOneBy({ id });
    if (!org) throw HttpError.notFound();
    return toOrganizationView(org);
  }

  update(userId: string, id: string, dto: UpdateOrganizationDto): Promise<OrganizationView> {
    return this.dataSource.transaction(async (m) => {
      const org = await m.findOne(Organization, {
        where: { id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!org) throw HttpError.notFound();
      const before = toOrganizationView(org);
      Object.assign(org, definedOnly(dto));
      const saved = await m.save(org);
      const after = toOrganizationView(saved);
      const previous = previousAttributes(before, { ...after, updated: before.updated });
      if (Object.keys(previous).length) {
        await this.outbox.record(m, {
          type: 'organization.updated',
          organizationId: id,
          actorUserId: userId,
          object: after,
          previous,
        });
      }
      return after;
    });
  }
}

export const definedOnly = <T extends object>(dto: T): Partial<T> =>
  Object.fromEntries(Object.entries(dto).filter(([, v]) => v !== undefined)) as Partial<T>;
