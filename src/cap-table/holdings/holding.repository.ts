import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../../database';
import { membersOfUserSql } from '../../organizations';
import type { HoldingType } from '../ledger/incentive-types';
import { Shareholding } from '../shareholdings/shareholding.entity';
import { VestingScheduleEntity } from '../vesting-schedules/vesting-schedule.entity';
import { Holding } from './holding.entity';

/** Reads of holdings (their writes go through the ledger) and of what their views need. */
@Injectable()
export class HoldingRepository extends AggregateRepository<Holding> {
  constructor(
    @InjectRepository(Holding) holdings: Repository<Holding>,
    @InjectRepository(VestingScheduleEntity)
    private readonly schedules: Repository<VestingScheduleEntity>,
    @InjectRepository(Shareholding) private readonly shareholdings: Repository<Shareholding>,
  ) {
    super(holdings);
  }

  /** The vesting schedule rows (any version, deleted ones too) the holdings use. */
  async schedulesOf(
    holdings: Holding[],
    tx?: InTransaction,
  ): Promise<Map<string, VestingScheduleEntity>> {
    const ids = [...new Set(holdings.map((h) => h.vestingScheduleId).filter((id) => id !== null))];
    if (!ids.length) return new Map();
    const repo = tx ? tx.manager.getRepository(VestingScheduleEntity) : this.schedules;
    const rows = await repo.findBy({ id: In(ids) });
    return new Map(rows.map((v) => [v.id, v]));
  }

  /** The holdings of the members, oldest first; a page of them with `page`. */
  ofMembers(memberIds: string[], page?: { limit: number; offset: number }): Promise<Holding[]> {
    if (!memberIds.length) return Promise.resolve([]);
    return this.repository.find({
      where: { memberId: In(memberIds) },
      order: { created: 'ASC', id: 'ASC' },
      ...(page && { take: page.limit, skip: page.offset }),
    });
  }

  /**
   * A page of the organization's holdings, oldest first: of one type with `type`, only those of
   * the user's own member records (not removed) with `ownOf`.
   */
  ofOrganization(
    organizationId: string,
    filter: { ownOf?: string; type?: HoldingType; limit: number; offset: number },
  ): Promise<Holding[]> {
    const query = this.repository
      .createQueryBuilder('h')
      .where('h.organizationId = :organizationId', { organizationId });
    if (filter.type) query.andWhere('h.type = :type', { type: filter.type });
    if (filter.ownOf !== undefined) {
      query.andWhere(`h.memberId IN ${membersOfUserSql(':organizationId', ':userId')}`, {
        userId: filter.ownOf,
      });
    }
    return query
      .orderBy('h.created', 'ASC')
      .addOrderBy('h.id', 'ASC')
      .limit(filter.limit)
      .offset(filter.offset)
      .getMany();
  }

  activeShareholdingsOf(memberIds: string[]): Promise<Shareholding[]> {
    if (!memberIds.length) return Promise.resolve([]);
    return this.shareholdings.find({
      where: { memberId: In(memberIds), status: 'active' },
      order: { created: 'ASC', id: 'ASC' },
    });
  }

  /** Notes and SAFEs of the organization converted on `date` (the same financing). */
  convertedOn(tx: InTransaction, organizationId: string, date: string): Promise<Holding[]> {
    return tx.manager
      .getRepository(Holding)
      .createQueryBuilder('h')
      .where("h.organization_id = :organizationId AND h.status = 'converted'", { organizationId })
      .andWhere("h.conversion->>'date' = :date", { date })
      .getMany();
  }
}
