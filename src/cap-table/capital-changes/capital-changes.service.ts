import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { AccessContext, DomainError } from '../../common';
import { previousAttributes } from '../../events';
import { OrganizationsDirectory } from '../../organizations';
import { LedgerChange, LedgerWriter } from '../ledger/ledger-writer';
import type { CapitalChangeChanges } from '../ledger/transaction-types';
import { decimalText } from '../quantities';
import { CreateCapitalChangeDto, UpdateCapitalChangeDto } from './capital-change.dto';
import { CapitalChange } from './capital-change.entity';
import { CapitalChangeView } from './capital-change.view';

const toView = (c: CapitalChange): CapitalChangeView => ({
  id: c.id,
  organization: c.organizationId,
  member: c.memberId,
  entity: c.entityId,
  date: c.date,
  amount: toDecimalString(toDecimal(c.amount)),
  currency: c.currency,
  type: c.type,
  description: c.description,
  created: c.created.toISOString(),
  updated: c.updated.toISOString(),
});

/** Capital contributions and distributions of members' entities, recorded in the log. */
@Injectable()
export class CapitalChangesService {
  constructor(
    private readonly ledger: LedgerWriter,
    private readonly organizations: OrganizationsDirectory,
  ) {}

  async create(
    access: AccessContext,
    entityId: string,
    dto: CreateCapitalChangeDto,
  ): Promise<CapitalChangeView> {
    const member = await this.organizations.member(access.organizationId!, dto.member);
    if (!member || member.entityId !== entityId) {
      throw DomainError.badRequest('member is not the member of this entity', {
        body: { field: 'member' },
      });
    }
    const capitalChange = {
      id: randomUUID(),
      memberId: member.id,
      entityId,
      date: dto.date,
      amount: decimalText(dto.amount)!,
      currency: dto.currency,
      type: dto.type,
      description: dto.description ?? null,
    };
    return this.ledger.change(access.organizationId!, access.userId, {}, async (c) => {
      await c.apply('CAPITAL_CHANGE_RECORDED', dto.date, { capitalChange });
      const view = await this.read(c, capitalChange.id);
      await c.record({
        type: 'capital_change.created',
        organizationId: access.organizationId,
        actorUserId: access.userId,
        object: view,
        description: `capital ${view.type} of ${view.amount} ${view.currency} by ${member.name} on ${view.date}`,
      });
      return view;
    });
  }

  update(
    access: AccessContext,
    entityId: string,
    dto: UpdateCapitalChangeDto,
  ): Promise<CapitalChangeView> {
    const wanted: CapitalChangeChanges = {
      date: dto.date,
      amount: dto.amount === undefined ? undefined : decimalText(dto.amount)!,
      currency: dto.currency,
      type: dto.type,
      description: dto.description,
    };
    return this.ledger.change(
      access.organizationId!,
      access.userId,
      { capitalChanges: [dto.id] },
      async (c) => {
        const current = c.state.capitalChanges.get(dto.id);
        if (!current || current.entityId !== entityId)
          throw DomainError.notFound('no such capital change of this entity');
        const changes = Object.fromEntries(
          Object.entries(wanted).filter(
            ([k, v]) => v !== undefined && current[k as keyof CapitalChangeChanges] !== v,
          ),
        ) as CapitalChangeChanges;
        const before = await this.read(c, dto.id);
        if (!Object.keys(changes).length) return before;
        await c.apply('CAPITAL_CHANGE_AMENDED', changes.date ?? current.date, {
          capitalChangeId: dto.id,
          changes,
        });
        const after = await this.read(c, dto.id);
        await c.record({
          type: 'capital_change.updated',
          organizationId: access.organizationId,
          actorUserId: access.userId,
          object: after,
          previous: previousAttributes(before, { ...after, updated: before.updated }),
          description: `capital ${after.type} of ${after.date}: changed ${Object.keys(changes).join(', ')}`,
        });
        return after;
      },
    );
  }

  /** As the change wrote it (no read back), else as the table holds it. */
  private async read(c: LedgerChange, id: string): Promise<CapitalChangeView> {
    return toView(await c.current(CapitalChange, id));
  }
}
