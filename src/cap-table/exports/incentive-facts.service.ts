import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Holding } from '../holdings/holding.entity';

/** What other modules may read of incentives (the documents module links files to them). */
@Injectable()
export class IncentiveFacts {
  constructor(@InjectRepository(Holding) private readonly holdings: Repository<Holding>) {}

  /**
   * The plan a holding of the organization was granted from: null for a holding of no plan (a
   * warrant, a convertible), undefined when the organization has no such holding. A holding never
   * changes plan.
   */
  async planOfHolding(
    organizationId: string,
    holdingId: string,
  ): Promise<string | null | undefined> {
    const holding = await this.holdings.findOne({
      where: { id: holdingId, organizationId },
      select: { id: true, planId: true },
    });
    return holding ? holding.planId : undefined;
  }
}
