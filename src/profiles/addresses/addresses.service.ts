import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common';
import { UnitOfWork } from '../../events';
import { AddressRepository } from '../records.repository';
import { UpdateAddressDto } from './address.dto';
import { AddressView, toAddressView } from './address.view';

const FIELDS = ['line1', 'line2', 'city', 'region', 'postalCode', 'country'] as const;

/**
 * Addresses (spec 4.5). Who may read or change one is decided by the permission guard (a personal
 * address is its user's alone; an organization's is seen by its members and changed by those who
 * may edit the organization).
 */
@Injectable()
export class AddressesService {
  constructor(
    private readonly addresses: AddressRepository,
    private readonly uow: UnitOfWork,
  ) {}

  async get(id: string): Promise<AddressView> {
    const address = await this.addresses.findById(id);
    if (!address) throw DomainError.notFound('no such address');
    return toAddressView(address);
  }

  update(id: string, dto: UpdateAddressDto): Promise<AddressView> {
    return this.uow.run(async (tx) => {
      const address = await this.addresses.lockById(id, tx);
      if (!address) throw DomainError.notFound('no such address');
      for (const field of FIELDS) {
        if (dto[field] !== undefined) address[field] = dto[field] ?? null;
      }
      return toAddressView(await this.addresses.save(address, tx));
    });
  }
}
