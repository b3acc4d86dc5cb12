import { Injectable } from '@nestjs/common';
import { AccessContext, DomainError, defineList } from '../../common';
import { LegendsService } from '../legends/legends.service';
import { fractionalAllowed } from '../quantities';
import { ListShareholdingsQuery } from './shareholding.dto';
import { ShareholdingRepository } from './shareholding.repository';
import {
  ShareBlockRow,
  ShareholdingConfig,
  ShareholdingView,
  toShareholdingView,
} from './shareholding.view';

/**
 * The shareholding list as cached: everyone with the full permission sees it alike, anyone else
 * (self scope) their own.
 */
export const SHAREHOLDING_LIST = defineList({
  list: 'shareholding',
  tables: ['shareholding', 'member'],
  audience: (access) => (access.scope === 'self' ? `user:${access.userId}` : 'all'),
});

/**
 * Reading shareholdings. Callers whose role lacks `canViewCapitalizationOrSelf` (a Shareholder)
 * read only the holdings of their own member records: the guard gives them the `self` scope.
 */
@Injectable()
export class ShareholdingReadsService {
  constructor(
    private readonly holdings: ShareholdingRepository,
    private readonly legends: LegendsService,
  ) {}

  list(access: AccessContext, query: ListShareholdingsQuery): Promise<string> {
    const status = query.status ?? 'active';
    return this.holdings.listJson(access.organizationId!, {
      ownOf: this.ownOf(access),
      status: status === 'all' ? null : status,
      limit: query.limit ?? 100,
      offset: query.offset ?? 0,
    });
  }

  /** The guard has decided the caller may see it (canViewHolding, or it is theirs). */
  async get(id: string): Promise<ShareholdingView> {
    const holding = await this.holdings.findById(id);
    if (!holding) throw DomainError.notFound('no such shareholding');
    return toShareholdingView(holding);
  }

  blocks(access: AccessContext): Promise<ShareBlockRow[]> {
    return this.holdings.blocks(access.organizationId!, this.ownOf(access));
  }

  async config(access: AccessContext): Promise<ShareholdingConfig> {
    const organizationId = access.organizationId!;
    const fractional = fractionalAllowed(access.organization!);
    return {
      organization: organizationId,
      unitName: fractional ? 'units' : 'shares',
      fractionalUnitsAllowed: fractional,
      defaultLegendIds: await this.legends.defaults(organizationId),
    };
  }

  private ownOf(access: AccessContext): string | undefined {
    return access.scope === 'self' ? access.userId : undefined;
  }
}
