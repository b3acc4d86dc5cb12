import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { AccessContext, Clock, defineList, DomainError } from '../../common';
import { previousAttributes } from '../../events';
import type { SecurityState } from '../ledger/ledger-state';
import { LedgerChange, LedgerWriter } from '../ledger/ledger-writer';
import type { SecurityChanges, SecurityRecord } from '../ledger/transaction-types';
import { decimalText, fractionalAllowed, quantity } from '../quantities';
import { activeHoldingsOf } from '../ledger/transactions/stock-class-split';
import { AddSharesDto, SecurityDto, SplitDto } from './security.dto';
import { Security } from './security.entity';
import { SecurityView, SplitView, toSecurityView } from './security.view';

const DESCRIBED: (keyof SecurityChanges)[] = [
  'name',
  'classType',
  'idPrefix',
  'parValue',
  'originalIssuePrice',
  'currency',
  'seniority',
  'liquidationPreferenceMultiple',
  'participating',
  'participationCapMultiple',
  'conversionRatio',
  'votesPerShare',
  'boardApprovalDate',
];

/** The first count the numeric(38, 10) columns cannot hold (29 digits before the point). */
const TOO_MANY_SHARES = toDecimal(`1${'0'.repeat(28)}`);

/** The class list as cached: the same for every reader. */
export const SECURITY_LIST = defineList({
  list: 'security',
  tables: ['security'],
  audience: () => 'all',
});

/** Share classes: created, changed, given more authorized shares and deleted through the log. */
@Injectable()
export class SecuritiesService {
  constructor(
    @InjectRepository(Security) private readonly securities: Repository<Security>,
    private readonly ledger: LedgerWriter,
    private readonly clock: Clock,
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

  async create(access: AccessContext, dto: SecurityDto): Promise<SecurityView> {
    const organization = access.organization!;
    const record: SecurityRecord = {
      id: randomUUID(),
      ...this.fields(dto, organization.currency),
      authorizedShares: quantity(dto.authorizedShares, 'authorizedShares', organization),
    };
    return this.ledger.change(organization.id, access.userId, {}, async (c) => {
      await c.apply('STOCK_CLASS_CREATED', record.boardApprovalDate ?? this.clock.today(), {
        security: record,
      });
      const view = await this.read(c, record.id);
      await c.record({
        type: 'security.created',
        organizationId: organization.id,
        actorUserId: access.userId,
        object: view,
        description: `class ${view.name}: created with ${view.authorizedShares} authorized shares`,
      });
      return view;
    });
  }

  async replace(access: AccessContext, id: string, dto: SecurityDto): Promise<SecurityView> {
    const organization = access.organization!;
    const wanted = this.fields(dto, organization.currency);
    const authorized = quantity(dto.authorizedShares, 'authorizedShares', organization);
    return this.ledger.change(organization.id, access.userId, { securities: [id] }, async (c) => {
      const current = this.current(c, id);
      const before = await this.read(c, id);
      const changes = Object.fromEntries(
        Object.entries(wanted).filter(
          ([k, v]) => JSON.stringify(current[k as keyof SecurityState]) !== JSON.stringify(v),
        ),
      ) as SecurityChanges;
      if (Object.keys(changes).length) {
        await c.apply('STOCK_CLASS_UPDATED', this.clock.today(), { securityId: id, changes });
      }
      if (toDecimalString(current.authorized) !== authorized) {
        await c.apply('TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT', this.clock.today(), {
          securityId: id,
          previousSharesAuthorized: before.authorizedShares,
          newSharesAuthorized: authorized,
          reason: null,
        });
      }
      return this.updated(c, access, before);
    });
  }

  async addShares(access: AccessContext, id: string, dto: AddSharesDto): Promise<SecurityView> {
    const organization = access.organization!;
    const added = quantity(dto.quantity, 'quantity', organization);
    return this.ledger.change(organization.id, access.userId, { securities: [id] }, async (c) => {
      const current = this.current(c, id);
      const before = await this.read(c, id);
      const authorized = current.authorized.plus(added);
      if (authorized.gte(TOO_MANY_SHARES)) {
        throw DomainError.badRequest(
          'quantity would take authorizedShares past 28 digits before the point',
          { body: { field: 'quantity' } },
        );
      }
      await c.apply('TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT', dto.date ?? this.clock.today(), {
        securityId: id,
        previousSharesAuthorized: before.authorizedShares,
        newSharesAuthorized: toDecimalString(authorized),
        reason: dto.reason ?? null,
      });
      return this.updated(c, access, before);
    });
  }

  /**
   * A forward or reverse split of the class (TX_STOCK_CLASS_SPLIT): every active shareholding,
   * the authorized shares, prices per share and the conversion ratio. Fractional shares are kept
   * in an LLC, rounded down (and reported) otherwise.
   */
  async split(access: AccessContext, id: string, dto: SplitDto): Promise<SplitView> {
    const organization = access.organization!;
    const scope = { securities: [id], holdingsOfClass: id };
    return this.ledger.change(organization.id, access.userId, scope, async (c) => {
      this.current(c, id);
      const before = await this.read(c, id);
      const held = activeHoldingsOf(c.state, id).map((h) => ({ ...h }));
      const date = dto.date ?? this.clock.today();
      const payload = {
        securityId: id,
        numerator: toDecimalString(toDecimal(dto.numerator)),
        denominator: toDecimalString(toDecimal(dto.denominator)),
        fractional: fractionalAllowed(organization),
        date,
        before: held.map((h) => ({
          shareholdingId: h.id,
          quantity: toDecimalString(h.quantity),
        })),
      };
      const splitId = await c.apply('TX_STOCK_CLASS_SPLIT', date, payload);
      const security = await this.read(c, id);
      // What the split made of each holding is the reducer's: read from the state it left.
      const view: SplitView = {
        id: splitId,
        numerator: payload.numerator,
        denominator: payload.denominator,
        date,
        security,
        shareholdings: held.map((h) => {
          const now = c.state.shareholdings.get(h.id)!;
          const after = now.status === 'active' ? now.quantity : toDecimal(0);
          const exact = h.quantity.times(payload.numerator).div(payload.denominator);
          return {
            id: h.id,
            certificateNumber: h.certificateNumber,
            member: h.memberId,
            quantityBefore: toDecimalString(h.quantity),
            quantityAfter: toDecimalString(after),
            fractionalRemainder: toDecimalString(exact.minus(after)),
            status: now.status === 'active' ? 'active' : 'voided',
          };
        }),
      };
      await c.record({
        type: 'security.split',
        organizationId: access.organizationId,
        actorUserId: access.userId,
        object: {
          ...security,
          split: { numerator: view.numerator, denominator: view.denominator, date },
        },
        previous: previousAttributes(before, security),
        description: `class ${before.name}: split ${view.numerator} for ${view.denominator} (${before.issuedShares} -> ${security.issuedShares} issued shares, ${held.length} shareholdings)`,
      });
      return view;
    });
  }

  /** Only a class with no issued shares can go (409 otherwise); its history stays in the log. */
  async remove(access: AccessContext, id: string): Promise<void> {
    await this.ledger.change(
      access.organizationId!,
      access.userId,
      { securities: [id] },
      async (c) => {
        this.current(c, id);
        const view = await this.read(c, id);
        await c.apply('STOCK_CLASS_DELETED', this.clock.today(), { securityId: id });
        await c.record({
          type: 'security.deleted',
          organizationId: access.organizationId,
          actorUserId: access.userId,
          object: view,
          description: `class ${view.name}: deleted`,
        });
      },
    );
  }

  private async updated(c: LedgerChange, access: AccessContext, before: SecurityView) {
    const after = await this.read(c, before.id);
    const previous = previousAttributes(before, { ...after, updated: before.updated });
    if (Object.keys(previous).length) {
      const changed = [...DESCRIBED, 'authorizedShares' as const]
        .filter((k) => k in previous)
        .map((k) => `${k} ${before[k] ?? 'none'} -> ${after[k] ?? 'none'}`);
      await c.record({
        type: 'security.updated',
        organizationId: access.organizationId,
        actorUserId: access.userId,
        object: after,
        previous,
        description: `class ${before.name}: ${changed.join('; ')}`,
      });
    }
    return after;
  }

  private current(c: LedgerChange, id: string): SecurityState {
    const s = c.state.securities.get(id);
    if (!s || s.deleted) throw DomainError.notFound('no such class');
    return s;
  }

  /** As the change wrote it (no read back), else as the table holds it. */
  private async read(c: LedgerChange, id: string): Promise<SecurityView> {
    return toSecurityView(await c.current(Security, id));
  }

  private fields(
    dto: SecurityDto,
    defaultCurrency: string,
  ): Omit<SecurityRecord, 'id' | 'authorizedShares'> {
    return {
      name: dto.name,
      classType: dto.classType,
      idPrefix: dto.idPrefix,
      parValue: decimalText(dto.parValue),
      originalIssuePrice: decimalText(dto.originalIssuePrice),
      currency: dto.currency ?? defaultCurrency,
      seniority: dto.seniority ?? 1,
      liquidationPreferenceMultiple: decimalText(dto.liquidationPreferenceMultiple),
      participating: dto.participating ?? false,
      participationCapMultiple: decimalText(dto.participationCapMultiple),
      conversionRatio: decimalText(dto.conversionRatio) ?? '1',
      votesPerShare: decimalText(dto.votesPerShare) ?? '1',
      boardApprovalDate: dto.boardApprovalDate ?? null,
    };
  }
}
