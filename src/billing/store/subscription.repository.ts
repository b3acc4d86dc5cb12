import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Not, In, Repository } from 'typeorm';
import { BillingSubscription, ENDED_STATES } from './subscription.entity';

/** The organizations' subscriptions as we hold them. */
@Injectable()
export class SubscriptionRepository {
  constructor(
    @InjectRepository(BillingSubscription)
    private readonly subscriptions: Repository<BillingSubscription>,
  ) {}

  /** Newest first. */
  list(organizationId: string): Promise<BillingSubscription[]> {
    return this.subscriptions.find({
      where: { organizationId },
      order: { created: 'DESC', id: 'ASC' },
    });
  }

  /** The organization's live subscription (at most one, by a unique index), if any. */
  live(organizationId: string, manager?: EntityManager): Promise<BillingSubscription | null> {
    const repository = manager?.getRepository(BillingSubscription) ?? this.subscriptions;
    return repository.findOneBy({ organizationId, state: Not(In([...ENDED_STATES])) });
  }

  /** The entity's live subscriptions (an entity may bill several organizations). */
  liveOfEntity(entityId: string, manager?: EntityManager): Promise<BillingSubscription[]> {
    const repository = manager?.getRepository(BillingSubscription) ?? this.subscriptions;
    return repository.findBy({ entityId, state: Not(In([...ENDED_STATES])) });
  }

  find(id: string, manager?: EntityManager): Promise<BillingSubscription | null> {
    const repository = manager?.getRepository(BillingSubscription) ?? this.subscriptions;
    return repository.findOneBy({ id });
  }

  byProviderId(providerId: number, manager: EntityManager): Promise<BillingSubscription | null> {
    return manager.getRepository(BillingSubscription).findOneBy({ providerId });
  }
}
