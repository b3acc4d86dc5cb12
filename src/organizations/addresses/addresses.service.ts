import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { HttpError } from '../../common/errors/app-error';
import { Member } from '../members/member.entity';
import { PermissionService } from '../permissions/permission.service';
import { RecordResolvers } from '../permissions/record-resolvers';
import { UpdateAddressDto } from './address.dto';
import { Address } from './address.entity';
import { AddressView, toAddressView } from './address.view';

const FIELDS = ['line1', 'line2', 'city', 'region', 'postalCode', 'country'] as const;

/**
 * Addresses (spec 4.5). A personal address is its user's alone; an organization's address is seen
 * by its active members and changed by those who may edit the organization.
 */
@Injectable()
export class AddressesService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly records: RecordResolvers,
    private readonly permissions: PermissionService,
  ) {}

  onModuleInit() {
    this.records.register('address', async (id) => {
      const address = await this.dataSource
        .getRepository(Address)
        .findOne({ where: { id }, select: { id: true, userId: true, organizationId: true } });
      return address
        ? { organizationId: address.organizationId, ownerUserId: address.userId }
        : null;
    });
  }

  /** 404 (not 403) for an address the caller may not see, so that ids cannot be probed. */
  async get(callerUserId: string, id: string): Promise<AddressView> {
    const address = await this.dataSource.getRepository(Address).findOneBy({ id });
    if (!address || !(await this.canSee(callerUserId, address))) throw HttpError.notFound();
    return toAddressView(address);
  }

  update(callerUserId: string, id: string, dto: UpdateAddressDto): Promise<AddressView> {
    return this.dataSource.transaction(async (m) => {
      const address = await m.findOne(Address, {
        where: { id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!address) throw HttpError.notFound();
      if (address.organizationId) {
        // Throws 403 unless the caller is an active member whose role may edit the organization.
        await this.permissions.check(callerUserId, 'canEditOrganization', address.organizationId);
      } else if (address.userId !== callerUserId) {
        throw HttpError.forbidden();
      }
      for (const field of FIELDS) {
        if (dto[field] !== undefined) address[field] = dto[field] ?? null;
      }
      return toAddressView(await m.save(address));
    });
  }

  private async canSee(userId: string, address: Address): Promise<boolean> {
    if (address.userId && address.userId === userId) return true;
    if (!address.organizationId) return false;
    return this.dataSource
      .getRepository(Member)
      .exists({ where: { organizationId: address.organizationId, userId, status: 'active' } });
  }
}
