import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { OrganizationsDirectory } from '../../organizations';
import { Holding } from '../holdings/holding.entity';

/** A user's incentives: holdings, and the plans they hold a grant of. */
export interface HeldIncentives {
  holdings: string[];
  plans: string[];
}

/** What other modules may read of incentives (the documents module links files to them). */
@Injectable()
export class IncentiveFacts {
  constructor(
    @InjectRepository(Holding) private readonly holdings: Repository<Holding>,
    private readonly organizations: OrganizationsDirectory,
  ) {}

  /**
   * The incentives of the user's current member records in organizations that are not deleted:
   * their holdings, and the plans (not deleted) of those that are grants.
   */
  async heldBy(userId: string): Promise<HeldIncentives> {
    const members = await this.organizations.memberIdsOfUser(userId);
    if (!members.length) return { holdings: [], plans: [] };
    const rows = (await this.holdings.query(
      `SELECT h.id, p.id AS plan
       FROM holding h LEFT JOIN stock_plan p ON p.id = h.plan_id AND p.deleted_at IS NULL
       WHERE h.member_id = ANY($1::uuid[])`,
      [members],
    )) as { id: string; plan: string | null }[];
    return {
      holdings: rows.map((r) => r.id),
      plans: [...new Set(rows.flatMap((r) => (r.plan ? [r.plan] : [])))],
    };
  }

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
