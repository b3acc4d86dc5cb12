import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { UsersDirectory } from '../../auth';
import { BillingProvider } from '../provider/billing-provider';
import { BillingProviderError } from '../provider/errors';
import { CustomerLink } from '../store/customer-link.entity';

/** Who a new customer is: the caller, and the organization billed when it is one's entity. */
export interface CustomerContact {
  userId: string;
  organizationName?: string;
}

/**
 * Entities as the provider's customers (`reference` = entity id). The link is stored once known;
 * a customer the provider already has (made by an earlier attempt whose answer was lost, or by
 * another instance) is looked up by its reference before one is made. Nothing is locked across
 * the provider's calls: the provider keeps references unique, so of two first uses at once one
 * makes the customer and the other's make is refused, and looks it up.
 */
@Injectable()
export class CustomersService {
  constructor(
    @InjectRepository(CustomerLink) private readonly links: Repository<CustomerLink>,
    private readonly provider: BillingProvider,
    private readonly users: UsersDirectory,
  ) {}

  /** The provider's customer id of the entity, if it has become a customer. */
  async find(entityId: string): Promise<number | null> {
    return (await this.links.findOneBy({ entityId }))?.providerCustomerId ?? null;
  }

  /** The entity's customer id, made at the provider on first use. */
  async ensure(entityId: string, contact: CustomerContact): Promise<number> {
    const known = await this.find(entityId);
    if (known !== null) return known;
    const customer =
      (await this.provider.findCustomer(entityId)) ?? (await this.create(entityId, contact));
    await this.links
      .createQueryBuilder()
      .insert()
      .values({ entityId, providerCustomerId: customer.id })
      .orIgnore()
      .execute();
    return customer.id;
  }

  private async create(entityId: string, contact: CustomerContact) {
    try {
      return await this.provider.createCustomer(await this.newCustomer(entityId, contact));
    } catch (error) {
      const made =
        error instanceof BillingProviderError && (await this.provider.findCustomer(entityId));
      if (made) return made;
      throw error;
    }
  }

  private async newCustomer(entityId: string, contact: CustomerContact) {
    const user = await this.users.findById(contact.userId);
    if (!user) throw new Error(`no user ${contact.userId}`);
    const [firstName, ...rest] = (user.name ?? '').trim().split(/\s+/).filter(Boolean);
    return {
      reference: entityId,
      firstName: firstName ?? user.email,
      lastName: rest.join(' ') || '-',
      email: user.email,
      organization: contact.organizationName,
    };
  }
}
