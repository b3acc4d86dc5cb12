import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { AccessContext, DomainError } from '../../common';
import { previousAttributes } from '../../events';
import { LedgerChange, LedgerWriter } from '../ledger/ledger-writer';
import type { ValuationChanges, ValuationRecord } from '../ledger/transaction-types';
import { decimalText } from '../quantities';
import { Security } from '../securities/security.entity';
import { PutValuationDto } from './valuation.dto';
import { Valuation } from './valuation.entity';
import { ValuationView } from './valuation.view';

export const toValuationView = (v: Valuation): ValuationView => ({
  id: v.id,
  organization: v.organizationId,
  type: v.type,
  pricePerShare: toDecimalString(toDecimal(v.pricePerShare)),
  security: v.securityId,
  effectiveDate: v.effectiveDate,
  provider: v.provider,
  reportFile: v.reportFileId,
  created: v.created.toISOString(),
  updated: v.updated.toISOString(),
});

/** Valuations (409A and the like), recorded in the log. */
@Injectable()
export class ValuationsService {
  constructor(
    @InjectRepository(Valuation) private readonly valuations: Repository<Valuation>,
    @InjectRepository(Security) private readonly securities: Repository<Security>,
    private readonly ledger: LedgerWriter,
  ) {}

  async list(organizationId: string): Promise<ValuationView[]> {
    const rows = await this.valuations.find({
      where: { organizationId },
      order: { effectiveDate: 'DESC', created: 'DESC' },
    });
    return rows.map(toValuationView);
  }

  async get(id: string): Promise<ValuationView> {
    const row = await this.valuations.findOneBy({ id });
    if (!row) throw DomainError.notFound('no such valuation');
    return toValuationView(row);
  }

  /** The most recent valuation in effect on `asOf` (today when omitted), if any. */
  async latest(organizationId: string, asOf?: string): Promise<ValuationView | null> {
    const qb = this.valuations
      .createQueryBuilder('v')
      .where('v.organization_id = :organizationId', { organizationId })
      .orderBy('v.effective_date', 'DESC')
      .addOrderBy('v.created', 'DESC')
      .limit(1);
    if (asOf) qb.andWhere('v.effective_date <= :asOf', { asOf });
    const row = await qb.getOne();
    return row ? toValuationView(row) : null;
  }

  /** Creates (no `id`) or updates (`id` of this organization's valuation); answers it as stored. */
  async put(access: AccessContext, dto: PutValuationDto): Promise<ValuationView> {
    const organizationId = access.organizationId!;
    if (
      dto.security &&
      !(await this.securities.existsBy({ id: dto.security, organizationId, deletedAt: IsNull() }))
    ) {
      throw DomainError.notFound('security is not a class of this organization');
    }
    const fields: Omit<ValuationRecord, 'id'> = {
      type: dto.type,
      pricePerShare: decimalText(dto.pricePerShare)!,
      securityId: dto.security ?? null,
      effectiveDate: dto.effectiveDate,
      provider: dto.provider ?? null,
      reportFileId: dto.reportFile ?? null,
    };
    const scope = dto.id ? { valuations: [dto.id] } : {};
    return this.ledger.change(organizationId, access.userId, scope, async (c) => {
      if (!dto.id) {
        const valuation = { id: randomUUID(), ...fields };
        await c.apply('VALUATION_RECORDED', dto.effectiveDate, { valuation });
        const view = await this.read(c, valuation.id);
        await c.record({
          type: 'valuation.created',
          organizationId,
          actorUserId: access.userId,
          object: view,
          description: `valuation ${view.type} of ${view.effectiveDate}: ${view.pricePerShare} per share`,
        });
        return view;
      }
      const current = c.state.valuations.get(dto.id);
      if (!current) throw DomainError.notFound('no such valuation in this organization');
      const changes = Object.fromEntries(
        Object.entries(fields).filter(([k, v]) => current[k as keyof ValuationChanges] !== v),
      ) as ValuationChanges;
      const before = await this.read(c, dto.id);
      if (!Object.keys(changes).length) return before;
      await c.apply('VALUATION_AMENDED', dto.effectiveDate, { valuationId: dto.id, changes });
      const after = await this.read(c, dto.id);
      // Named as the API names them (`security`, not the column's `securityId`).
      const previous = previousAttributes(before, { ...after, updated: before.updated });
      await c.record({
        type: 'valuation.updated',
        organizationId,
        actorUserId: access.userId,
        object: after,
        previous,
        description: `valuation ${after.type} of ${after.effectiveDate}: changed ${Object.keys(previous).join(', ')}`,
      });
      return after;
    });
  }

  /** As the change wrote it (no read back), else as the table holds it. */
  private async read(c: LedgerChange, id: string): Promise<ValuationView> {
    return toValuationView(await c.current(Valuation, id));
  }
}
