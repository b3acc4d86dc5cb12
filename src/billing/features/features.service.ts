import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { readTally } from '../../cap-table';
import { Feature, Plan, PLANS, planOfProduct } from '../plans';
import { BillingProvider } from '../provider/billing-provider';
import { SubscriptionRepository } from '../store/subscription.repository';
import { OrganizationFeaturesView } from './plan.view';

export interface OrganizationPlan {
  plan: Plan;
  /** The live subscription's state; null on `free`. */
  status: string | null;
}

/**
 * What an organization's plan allows: the modules ask here. No live subscription (or billing not
 * configured) is `free`; a product we do not know is the lowest paid plan.
 */
@Injectable()
export class FeaturesService {
  private readonly logger = new Logger(FeaturesService.name);

  constructor(
    private readonly provider: BillingProvider,
    private readonly subscriptions: SubscriptionRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async planOf(organizationId: string): Promise<OrganizationPlan> {
    const live = this.provider.configured ? await this.subscriptions.live(organizationId) : null;
    if (!live) return { plan: PLANS.free, status: null };
    const { plan, known } = planOfProduct(live.productHandle);
    if (!known) {
      this.logger.warn(
        `organization ${organizationId}: product "${live.productHandle}" has no plan, given ${plan.handle}'s`,
      );
    }
    return { plan, status: live.state };
  }

  async enabled(organizationId: string, feature: Feature): Promise<boolean> {
    return (await this.planOf(organizationId)).plan.features[feature];
  }

  async describe(organizationId: string): Promise<OrganizationFeaturesView> {
    const [{ plan, status }, usage] = await Promise.all([
      this.planOf(organizationId),
      readTally(this.dataSource.manager, organizationId),
    ]);
    return {
      plan: plan.handle,
      status,
      features: { ...plan.features },
      limits: { ...plan.limits },
      usage: { members: usage.members, shareholders: usage.shareholders },
    };
  }
}
