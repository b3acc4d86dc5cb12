import { getSchemaPath } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AccessContext, Clock, DomainError } from '../../common';
import { UsersDirectory } from '../../auth';
import { Env, isProduction } from '../../config';
import { documentEventObjects, Tx, UnitOfWork, previousAttributes } from '../../events';
import { LegalRecordsService } from '../../profiles';
import { definedOnly, describeChanges } from '../describe-changes';
import { MemberRepository } from '../members/member.repository';
import { memberEvent } from '../members/member-rules';
import { OWNER_ROLE_ID } from '../permissions/permissions';
import { OrganizationDocumentsRegistry } from './organization-documents';
import { CreateOrganizationDto, UpdateOrganizationDto } from './organization.dto';
import type { DocumentStore } from './organization.entity';
import { OrganizationRepository } from './organization.repository';
import { OrganizationView, toOrganizationView } from './organization.view';

const EDITABLE = ['name', 'legalName', 'country', 'currency', 'type', 'documentStore'] as const;

/** An organization's events carry it as its route shows it. */
const organization = () => ({ $ref: getSchemaPath(OrganizationView) });
documentEventObjects({
  'organization.created': organization,
  'organization.updated': organization,
});

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly members: MemberRepository,
    private readonly records: LegalRecordsService,
    private readonly users: UsersDirectory,
    private readonly clock: Clock,
    private readonly env: Env,
    private readonly documents: OrganizationDocumentsRegistry,
  ) {}

  /** Creates the organization, its entity and address, and makes the creator its Owner. */
  create(userId: string, dto: CreateOrganizationDto): Promise<OrganizationView> {
    return this.uow.run((tx) => this.createIn(tx, userId, dto));
  }

  /**
   * The same inside a transaction the caller holds, which may go on to write the new
   * organization's cap table (onboarding builds one in the transaction that creates it).
   */
  async createIn(tx: Tx, userId: string, dto: CreateOrganizationDto): Promise<OrganizationView> {
    const documentStore = this.documentStoreOf(dto.documentStore);
    const user = await this.users.findById(userId);
    if (!user) throw DomainError.unauthorized('the account no longer exists');
    const id = randomUUID();
    const entityId = await this.records.createOrganizationEntity(tx, {
      id,
      name: dto.legalName ?? dto.name,
    });
    const organization = await this.organizations.add(
      {
        id,
        name: dto.name,
        legalName: dto.legalName ?? null,
        country: dto.country ?? null,
        currency: dto.currency ?? 'USD',
        type: dto.type ?? 'corporation',
        documentStore,
        entityId,
        createdBy: userId,
      },
      tx,
    );
    organization.addressId = await this.records.createOrganizationAddress(tx, {
      id,
      country: organization.country,
    });
    await this.organizations.setAddress(id, organization.addressId, tx);
    const owner = await this.members.add(
      {
        organizationId: id,
        userId,
        entityId: user.entityId,
        name: user.name ?? user.email,
        email: user.email,
        roleId: OWNER_ROLE_ID,
        status: 'active',
      },
      tx,
    );
    const view = toOrganizationView(organization);
    await tx.record(
      {
        type: 'organization.created',
        organizationId: id,
        actorUserId: userId,
        object: view,
        description: `organization ${view.name}: created`,
      },
      memberEvent('member.added', userId, owner, `member ${user.email}: added as Owner`),
    );
    return view;
  }

  /**
   * The store asked for (400 for `suite` while it is not configured), or the default: the suite
   * in production when it is configured, the data room otherwise.
   */
  private documentStoreOf(asked: DocumentStore | undefined): DocumentStore {
    if (asked === 'suite' && !this.env.suiteConfigured) {
      throw DomainError.badRequest(
        'documentStore: the productivity-suite store is not configured (MICROSOFT_*)',
      );
    }
    return asked ?? (this.env.suiteConfigured && isProduction(this.env) ? 'suite' : 'dataRoom');
  }

  /** Organizations where the caller is an active member. */
  async listMine(userId: string): Promise<OrganizationView[]> {
    return (await this.organizations.listForUser(userId)).map(toOrganizationView);
  }

  async get(id: string): Promise<OrganizationView> {
    const organization = await this.organizations.find(id);
    if (!organization) throw DomainError.notFound('no such organization');
    return toOrganizationView(organization);
  }

  update(access: AccessContext, dto: UpdateOrganizationDto): Promise<OrganizationView> {
    return this.uow.run(async (tx) => {
      const organization = await this.organizations.lock(access.organizationId!, tx);
      if (!organization) throw DomainError.notFound('no such organization');
      const before = toOrganizationView(organization);
      if (dto.documentStore !== undefined && dto.documentStore !== organization.documentStore) {
        this.documentStoreOf(dto.documentStore);
        if (await this.documents.hasDocuments(organization.id, tx)) {
          throw DomainError.conflict(
            'documentStore: the organization has documents or folders; it changes only while it has none',
          );
        }
      }
      Object.assign(organization, definedOnly(dto));
      const after = toOrganizationView(await this.organizations.save(organization, tx));
      const previous = previousAttributes(before, { ...after, updated: before.updated });
      if (Object.keys(previous).length) {
        await tx.record({
          type: 'organization.updated',
          organizationId: organization.id,
          actorUserId: access.userId,
          object: after,
          previous,
          description: `organization ${before.name}: ${describeChanges(before, after, [...EDITABLE]).join('; ')}`,
        });
      }
      return after;
    });
  }

  /**
   * Soft delete (the Owner's alone): the rows stay for the audit trail, but nobody reads or
   * changes the organization afterwards; it leaves every member's list.
   */
  remove(access: AccessContext): Promise<void> {
    return this.uow.run(async (tx) => {
      const organization = await this.organizations.lock(access.organizationId!, tx);
      if (!organization) throw DomainError.notFound('no such organization');
      organization.deletedAt = this.clock.now();
      await this.organizations.save(organization, tx);
      await tx.record({
        type: 'organization.deleted',
        organizationId: organization.id,
        actorUserId: access.userId,
        object: {
          ...toOrganizationView(organization),
          deleted: organization.deletedAt.toISOString(),
        },
        description: `organization ${organization.name}: deleted`,
      });
    });
  }
}
