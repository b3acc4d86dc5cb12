import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { AccessContext, DomainError, defineList } from '../../common';
import { replaceSecurity } from '../ledger/commands/replace-security';
import { LedgerWriter } from '../ledger/ledger-writer';
import type { CommandOutcome } from '../ledger/transactions/definition';
import type { AddSharesInput } from '../ledger/transactions/stock-class-authorized-shares-adjustment';
import type { SplitInput } from '../ledger/transactions/stock-class-split';
import { AddSharesDto, SecurityDto, SplitDto } from './security.dto';
import { Security } from './security.entity';
import { SecurityView, SplitView, toSecurityView } from './security.view';

/** The class list as cached: the same for every reader. */
export const SECURITY_LIST = defineList({
  list: 'security',
  tables: ['security'],
  audience: () => 'all',
});

/**
 * Share classes: each change a command of the ledger (`LedgerWriter`), whose definitions hold
 * its rules, its payload and its event. What is left here is the answer.
 */
@Injectable()
export class SecuritiesService {
  constructor(
    @InjectRepository(Security) private readonly securities: Repository<Security>,
    private readonly ledger: LedgerWriter,
  ) {}

  async list(organizationId: string): Promise<SecurityView[]> {
    const rows = await this.securities.find({
      where: { organizationId, deletedAt: IsNull() },
      order: { seniority: 'DESC', created: 'ASC' },
    });
    return rows.map(toSecurityView);
  }

  async get(organizationId: string, id: string): Promise<SecurityView> {
    const row = await this.securities.findOneBy({ organizationId, id, deletedAt: IsNull() });
    if (!row) throw DomainError.notFound('no such class');
    return toSecurityView(row);
  }

  create(access: AccessContext, dto: SecurityDto): Promise<SecurityView> {
    return this.answer(
      this.ledger.execute('STOCK_CLASS_CREATED', dto, access, (o) =>
        o.view('securities', o.payload!.security.id),
      ),
    );
  }

  /** The fields and the authorized shares, one command (see replaceSecurity). */
  replace(access: AccessContext, id: string, dto: SecurityDto): Promise<SecurityView> {
    return this.answer(
      this.ledger.run(replaceSecurity, { ...dto, securityId: id }, access, (r) =>
        r.view('securities', id),
      ),
    );
  }

  addShares(access: AccessContext, id: string, dto: AddSharesDto): Promise<SecurityView> {
    const input: AddSharesInput = { securityId: id, ...dto };
    return this.answer(
      this.ledger.execute('TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT', input, access, (o) =>
        o.view('securities', id),
      ),
    );
  }

  /**
   * A forward or reverse split of the class (TX_STOCK_CLASS_SPLIT): every active shareholding,
   * the authorized shares, prices per share and the conversion ratio. Fractional shares are kept
   * in an LLC, rounded down (and reported) otherwise.
   */
  split(access: AccessContext, id: string, dto: SplitDto): Promise<SplitView> {
    const input: SplitInput = { securityId: id, ...dto };
    return this.answer(
      this.ledger.execute('TX_STOCK_CLASS_SPLIT', input, access, (o) => splitView(o)),
    );
  }

  /** Only a class with no issued shares can go (409 otherwise); its history stays in the log. */
  async remove(access: AccessContext, id: string): Promise<void> {
    await this.ledger.execute('STOCK_CLASS_DELETED', { securityId: id }, access);
  }

  private async answer<V>(run: Promise<{ answer?: object }>): Promise<V> {
    return (await run).answer as V;
  }
}

/** What the split made of each holding is the reducer's: read from the state it left. */
async function splitView(o: CommandOutcome<'TX_STOCK_CLASS_SPLIT'>): Promise<SplitView> {
  const p = o.payload!;
  return {
    id: o.transactionId!,
    numerator: p.numerator,
    denominator: p.denominator,
    date: p.date,
    security: (await o.view('securities', p.securityId)) as SecurityView,
    shareholdings: p.before.map((held) => {
      const now = o.state.shareholdings.get(held.shareholdingId)!;
      const after = now.status === 'active' ? now.quantity : toDecimal(0);
      const exact = toDecimal(held.quantity).times(p.numerator).div(p.denominator);
      return {
        id: now.id,
        certificateNumber: now.certificateNumber,
        member: now.memberId,
        quantityBefore: held.quantity,
        quantityAfter: toDecimalString(after),
        fractionalRemainder: toDecimalString(exact.minus(after)),
        status: now.status === 'active' ? 'active' : 'voided',
      };
    }),
  };
}
