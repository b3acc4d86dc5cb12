import { Injectable } from '@nestjs/common';
import { AccessContext, Clock, defineList, DomainError } from '../../common';
import { InTransaction } from '../../database';
import { OrganizationsDirectory } from '../../organizations';
import { LegalRecordsService } from '../../profiles';
import { toShareholdingView } from '../shareholdings/shareholding.view';
import { ListMyHoldingsQuery, ListOrganizationHoldingsQuery } from './holding.dto';
import { Holding } from './holding.entity';
import { HoldingRepository } from './holding.repository';
import { HoldingView, PortfolioEntry, toHoldingView } from './holding.view';

/** Whether the caller's role reads every holding of the organization (else their own). */
const seesAllHoldings = (access: AccessContext) =>
  access.scope === 'all' && access.permissions.has('canViewHolding');

/**
 * The organization's holding list as cached: the holdings, their vesting terms and (for a caller
 * who sees only their own) the member records that are theirs; vested figures are of today.
 */
export const HOLDING_LIST = defineList({
  list: 'holding',
  tables: ['holding', 'vesting_schedule', 'member'],
  varies: (clock) => clock.today(),
  audience: (access) => (seesAllHoldings(access) ? 'all' : `user:${access.userId}`),
});

/**
 * Reading holdings: one (the guard decided), the caller's own across organizations, an
 * organization's (all of them, or the caller's own), and an entity's portfolio (its owner sees
 * all of it, an organization's cap-table viewers their organization's part).
 */
@Injectable()
export class HoldingReadsService {
  constructor(
    private readonly holdings: HoldingRepository,
    private readonly organizations: OrganizationsDirectory,
    private readonly legalRecords: LegalRecordsService,
    private readonly clock: Clock,
  ) {}

  async get(id: string, tx?: InTransaction): Promise<HoldingView> {
    const holding = await this.holdings.findById(id, tx);
    if (!holding) throw DomainError.notFound('no such holding');
    return (await this.views([holding], tx))[0];
  }

  /** `GET /v1/holding`: the holdings of the caller's member records, oldest first. */
  async mine(userId: string, query: ListMyHoldingsQuery): Promise<HoldingView[]> {
    const members = await this.organizations.memberIdsOfUser(userId);
    const rows = await this.holdings.ofMembers(members, {
      limit: query.limit ?? 100,
      offset: query.offset ?? 0,
    });
    return this.views(rows);
  }

  /**
   * `GET /v1/organization/:organization/holding`, oldest first. The route needs only
   * `canViewOrganization`; a caller whose role lacks `canViewHolding` (a Shareholder) reads the
   * holdings of their own member records alone, as `GET /v1/holding/:holding` lets them.
   */
  async ofOrganization(
    access: AccessContext,
    query: ListOrganizationHoldingsQuery,
  ): Promise<HoldingView[]> {
    const rows = await this.holdings.ofOrganization(access.organizationId!, {
      ownOf: seesAllHoldings(access) ? undefined : access.userId,
      type: query.type,
      limit: query.limit ?? 100,
      offset: query.offset ?? 0,
    });
    return this.views(rows);
  }

  /**
   * `GET /v1/entity/:entity/profile`. The entity's owner (whose personal entity it is) sees every
   * organization it is a member of; anyone else only those where their role has
   * `canViewCapTable`, and 403 when that is none.
   */
  async portfolio(userId: string, entityId: string): Promise<PortfolioEntry[]> {
    const entity = await this.legalRecords.entityOwner(entityId);
    if (!entity) throw DomainError.notFound('no such entity');
    let memberships = await this.organizations.membershipsOfEntity(entityId);
    if (entity.ownerUserId !== userId) {
      const visible = new Set(
        await this.organizations.organizationsPermitting(userId, 'canViewCapTable'),
      );
      memberships = memberships.filter((m) => visible.has(m.organizationId));
      if (!memberships.length) {
        throw DomainError.forbidden(
          "requires being the entity's owner, or canViewCapTable in an organization it belongs to",
        );
      }
    }
    const memberIds = memberships.map((m) => m.memberId);
    const [shareholdings, holdings] = await Promise.all([
      this.holdings.activeShareholdingsOf(memberIds),
      this.holdings.ofMembers(memberIds),
    ]);
    const views = await this.views(holdings);
    return memberships.map((m) => ({
      organization: { id: m.organizationId, name: m.organizationName },
      member: m.memberId,
      shareholdings: shareholdings.filter((s) => s.memberId === m.memberId).map(toShareholdingView),
      holdings: views.filter((h) => h.member === m.memberId),
    }));
  }

  async views(rows: Holding[], tx?: InTransaction): Promise<HoldingView[]> {
    const schedules = await this.holdings.schedulesOf(rows, tx);
    const date = this.clock.today();
    return rows.map((h) =>
      toHoldingView(
        h,
        h.vestingScheduleId ? (schedules.get(h.vestingScheduleId) ?? null) : null,
        date,
      ),
    );
  }
}
