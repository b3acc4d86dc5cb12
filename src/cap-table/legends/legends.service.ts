import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { AccessContext, Clock, DomainError } from '../../common';
import { previousAttributes } from '../../events';
import { LedgerChange, LedgerWriter } from '../ledger/ledger-writer';
import type { LegendChanges } from '../ledger/transaction-types';
import { LegendDto, UpdateLegendDto } from './legend.dto';
import { Legend } from './legend.entity';
import { LegendView } from './legend.view';

const toView = (l: Legend): LegendView => ({
  id: l.id,
  organization: l.organizationId,
  name: l.name,
  text: l.text,
  isDefault: l.isDefault,
  created: l.created.toISOString(),
});

/** Legend templates, changed through the log like every part of the cap table. */
@Injectable()
export class LegendsService {
  constructor(
    @InjectRepository(Legend) private readonly legends: Repository<Legend>,
    private readonly ledger: LedgerWriter,
    private readonly clock: Clock,
  ) {}

  async list(organizationId: string): Promise<LegendView[]> {
    const rows = await this.legends.find({
      where: { organizationId, deletedAt: IsNull() },
      order: { created: 'ASC', id: 'ASC' },
    });
    return rows.map(toView);
  }

  async get(organizationId: string, id: string): Promise<LegendView> {
    const row = await this.legends.findOneBy({ organizationId, id, deletedAt: IsNull() });
    if (!row) throw DomainError.notFound('no such legend');
    return toView(row);
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
    const legend = {
      id: randomUUID(),
      name: dto.name,
      text: dto.text,
      isDefault: dto.isDefault ?? false,
    };
    return this.ledger.change(access.organizationId!, access.userId, {}, async (c) => {
      await c.apply('STOCK_LEGEND_TEMPLATE_CREATED', this.clock.today(), { legend });
      const view = await this.read(c, legend.id);
      await c.record({
        type: 'legend.created',
        organizationId: access.organizationId,
        actorUserId: access.userId,
        object: view,
        description: `legend ${view.name}: created`,
      });
      return view;
    });
  }

  update(access: AccessContext, id: string, dto: UpdateLegendDto): Promise<LegendView> {
    return this.ledger.change(
      access.organizationId!,
      access.userId,
      { legends: [id] },
      async (c) => {
        const current = c.state.legends.get(id);
        if (!current || current.deleted) throw DomainError.notFound('no such legend');
        const before = await this.read(c, id);
        const changes = Object.fromEntries(
          Object.entries(dto).filter(
            ([k, v]) => v !== undefined && current[k as keyof LegendChanges] !== v,
          ),
        ) as LegendChanges;
        if (!Object.keys(changes).length) return before;
        await c.apply('STOCK_LEGEND_TEMPLATE_UPDATED', this.clock.today(), {
          legendId: id,
          changes,
        });
        const after = await this.read(c, id);
        await c.record({
          type: 'legend.updated',
          organizationId: access.organizationId,
          actorUserId: access.userId,
          object: after,
          previous: previousAttributes(before, after),
          description: `legend ${before.name}: changed ${Object.keys(changes).join(', ')}`,
        });
        return after;
      },
    );
  }

  /** A legend still on an active shareholding cannot go (409). */
  async remove(access: AccessContext, id: string): Promise<void> {
    await this.ledger.change(
      access.organizationId!,
      access.userId,
      { legendToDelete: id },
      async (c) => {
        const current = c.state.legends.get(id);
        if (!current || current.deleted) throw DomainError.notFound('no such legend');
        const view = await this.read(c, id);
        await c.apply('STOCK_LEGEND_TEMPLATE_DELETED', this.clock.today(), { legendId: id });
        await c.record({
          type: 'legend.deleted',
          organizationId: access.organizationId,
          actorUserId: access.userId,
          object: view,
          description: `legend ${view.name}: deleted`,
        });
      },
    );
  }

  /** As the change wrote it (no read back), else as the table holds it. */
  private async read(c: LedgerChange, id: string): Promise<LegendView> {
    return toView(await c.current(Legend, id));
  }
}
