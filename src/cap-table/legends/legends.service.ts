import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { AccessContext, DomainError } from '../../common';
import { LedgerWriter } from '../ledger/ledger-writer';
import type { UpdateLegendInput } from '../ledger/transactions/stock-legend-template-updated';
import { LegendDto, UpdateLegendDto } from './legend.dto';
import { Legend } from './legend.entity';
import { LegendView, toLegendView } from './legend.view';

/**
 * Legend templates, changed through the log like every part of the cap table: each change a
 * command of the ledger, whose definition holds its rules and its event.
 */
@Injectable()
export class LegendsService {
  constructor(
    @InjectRepository(Legend) private readonly legends: Repository<Legend>,
    private readonly ledger: LedgerWriter,
  ) {}

  async list(organizationId: string): Promise<LegendView[]> {
    const rows = await this.legends.find({
      where: { organizationId, deletedAt: IsNull() },
      order: { created: 'ASC', id: 'ASC' },
    });
    return rows.map(toLegendView);
  }

  async get(organizationId: string, id: string): Promise<LegendView> {
    const row = await this.legends.findOneBy({ organizationId, id, deletedAt: IsNull() });
    if (!row) throw DomainError.notFound('no such legend');
    return toLegendView(row);
  }

  /** The organization's default legends (put on shareholdings that name none). */
  async defaults(organizationId: string): Promise<string[]> {
    const rows = await this.legends.find({
      where: { organizationId, deletedAt: IsNull(), isDefault: true },
      select: { id: true },
      order: { created: 'ASC', id: 'ASC' },
    });
    return rows.map((r) => r.id);
  }

  create(access: AccessContext, dto: LegendDto): Promise<LegendView> {
    return this.answer(
      this.ledger.execute('STOCK_LEGEND_TEMPLATE_CREATED', dto, access, (o) =>
        o.view('legends', o.payload!.legend.id),
      ),
    );
  }

  /** The given fields; an unchanged legend is answered as it is (nothing logged). */
  update(access: AccessContext, id: string, dto: UpdateLegendDto): Promise<LegendView> {
    const input: UpdateLegendInput = { legendId: id, ...dto };
    return this.answer(
      this.ledger.execute('STOCK_LEGEND_TEMPLATE_UPDATED', input, access, (o) =>
        o.view('legends', id),
      ),
    );
  }

  /** A legend still on an active shareholding cannot go (409). */
  async remove(access: AccessContext, id: string): Promise<void> {
    await this.ledger.execute('STOCK_LEGEND_TEMPLATE_DELETED', { legendId: id }, access);
  }

  private async answer<V>(run: Promise<{ answer?: object }>): Promise<V> {
    return (await run).answer as V;
  }
}
