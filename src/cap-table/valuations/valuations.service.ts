import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccessContext, DomainError } from '../../common';
import { LedgerWriter } from '../ledger/ledger-writer';
import type { AmendValuationInput } from '../ledger/transactions/valuation-amended';
import type { ValuationInput } from '../ledger/transactions/valuation-recorded';
import { decimalText } from '../quantities';
import { PutValuationDto } from './valuation.dto';
import { Valuation } from './valuation.entity';
import { toValuationView, ValuationView } from './valuation.view';

/**
 * Valuations (409A and the like), recorded in the log: each a command of the ledger, whose
 * definition holds its rules (a live class of the organization) and its event.
 */
@Injectable()
export class ValuationsService {
  constructor(
    @InjectRepository(Valuation) private readonly valuations: Repository<Valuation>,
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
    const fields: ValuationInput = {
      type: dto.type,
      pricePerShare: decimalText(dto.pricePerShare)!,
      securityId: dto.security ?? null,
      effectiveDate: dto.effectiveDate,
      provider: dto.provider ?? null,
      reportFileId: dto.reportFile ?? null,
    };
    const { answer } = dto.id
      ? await this.ledger.execute(
          'VALUATION_AMENDED',
          { ...fields, valuationId: dto.id } satisfies AmendValuationInput,
          access,
          (o) => o.view('valuations', dto.id!),
        )
      : await this.ledger.execute('VALUATION_RECORDED', fields, access, (o) =>
          o.view('valuations', o.payload!.valuation.id),
        );
    return answer as ValuationView;
  }
}
