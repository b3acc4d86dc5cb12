import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AccessContext, DomainError } from '../../common';
import { UnitOfWork } from '../../events';
import { CustomersService } from '../customers/customers.service';
import { BillingProvider } from '../provider/billing-provider';
import { billingNotConfigured } from '../provider/errors';
import type { PaymentProfile } from '../provider/wire';
import { lockEntityBilling } from '../store/organization-lock';
import { BillingPaymentProfile } from '../store/payment-profile.entity';
import { BillingSubscription } from '../store/subscription.entity';
import { SubscriptionRepository } from '../store/subscription.repository';
import { CreatePaymentProfileDto, UpdatePaymentProfileDto } from './payment-profile.dto';
import { PaymentProfileView } from './payment-profile.view';

const toView = (p: BillingPaymentProfile): PaymentProfileView => ({
  id: p.id,
  brand: p.brand,
  last4: p.last4,
  expirationMonth: p.expirationMonth,
  expirationYear: p.expirationYear,
  isDefault: p.isDefault,
});

/** What we keep of the provider's profile: never more than the last four digits. */
function shown(profile: PaymentProfile) {
  const masked = profile.masked_card_number ?? profile.masked_bank_account_number ?? '';
  return {
    brand: profile.card_type ?? profile.bank_name ?? profile.payment_type,
    last4: masked.replace(/\D/g, '').slice(-4),
    expirationMonth: profile.expiration_month ?? null,
    expirationYear: profile.expiration_year ?? null,
  };
}

/**
 * An entity's payment profiles: stored at the provider (from a token of its JS), shown from our
 * copy. The default one is what a new subscription is charged to, unless it names another;
 * making one the default switches the entity's live subscriptions to it.
 */
@Injectable()
export class PaymentProfilesService {
  constructor(
    @InjectRepository(BillingPaymentProfile)
    private readonly profiles: Repository<BillingPaymentProfile>,
    private readonly provider: BillingProvider,
    private readonly customers: CustomersService,
    private readonly subscriptions: SubscriptionRepository,
    private readonly uow: UnitOfWork,
  ) {}

  async list(entityId: string): Promise<PaymentProfileView[]> {
    const rows = await this.profiles.find({
      where: { entityId },
      order: { isDefault: 'DESC', created: 'DESC', id: 'ASC' },
    });
    return rows.map(toView);
  }

  /** The first profile of an entity is its default. A token the provider refuses is a 400. */
  async create(
    access: AccessContext,
    entityId: string,
    dto: CreatePaymentProfileDto,
  ): Promise<PaymentProfileView> {
    this.assertConfigured();
    const customerId = await this.customers.ensure(entityId, { userId: access.userId });
    const made = await this.provider.createPaymentProfile(customerId, dto.token);
    return this.uow.run(async (tx) => {
      await lockEntityBilling(tx.manager, entityId);
      const repository = tx.manager.getRepository(BillingPaymentProfile);
      const first = !(await repository.existsBy({ entityId }));
      const row = repository.create({
        id: randomUUID(),
        entityId,
        providerId: made.id,
        isDefault: first,
        ...shown(made),
      });
      return toView(await repository.save(row));
    });
  }

  async update(
    entityId: string,
    id: string,
    dto: UpdatePaymentProfileDto,
  ): Promise<PaymentProfileView> {
    this.assertConfigured();
    const row = await this.find(entityId, id);
    const changed = await this.provider.updatePaymentProfile(row.providerId, dto);
    Object.assign(row, shown(changed));
    return toView(await this.profiles.save(row));
  }

  /** Makes it the default, and the profile of the entity's live subscriptions. */
  async makeDefault(entityId: string, id: string): Promise<PaymentProfileView> {
    this.assertConfigured();
    const row = await this.find(entityId, id);
    const live = await this.subscriptions.liveOfEntity(entityId);
    for (const subscription of live) {
      await this.provider.changeSubscriptionPaymentProfile(subscription.providerId, row.providerId);
    }
    return this.uow.run(async (tx) => {
      await lockEntityBilling(tx.manager, entityId);
      if (live.length) {
        await tx.manager
          .getRepository(BillingSubscription)
          .update({ id: In(live.map((s) => s.id)) }, { paymentProfileProviderId: row.providerId });
      }
      const repository = tx.manager.getRepository(BillingPaymentProfile);
      await repository.update({ entityId }, { isDefault: false });
      await repository.update({ id }, { isDefault: true });
      return toView((await repository.findOneBy({ id }))!);
    });
  }

  /**
   * 409 while a live subscription is charged to it (it would have nothing to pay with). One whose
   * profile we do not know is taken to be charged to the default.
   */
  async remove(entityId: string, id: string): Promise<void> {
    this.assertConfigured();
    const row = await this.find(entityId, id);
    const paying = (await this.subscriptions.liveOfEntity(entityId)).some(
      (s) =>
        s.paymentProfileProviderId === row.providerId ||
        (s.paymentProfileProviderId === null && row.isDefault),
    );
    if (paying) {
      throw DomainError.conflict(
        'the profile pays for a live subscription: make another the default first',
      );
    }
    await this.provider.deletePaymentProfile(row.providerId);
    await this.profiles.delete({ id });
  }

  /** The entity's profile; another entity's (or none) is 404. */
  private async find(entityId: string, id: string): Promise<BillingPaymentProfile> {
    const row = await this.profiles.findOneBy({ id, entityId });
    if (!row) throw DomainError.notFound('no such payment profile of this entity');
    return row;
  }

  private assertConfigured() {
    if (!this.provider.configured) throw billingNotConfigured();
  }
}
