import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../../database';
import { Shareholding } from '../shareholdings/shareholding.entity';
import { VestingScheduleEntity } from '../vesting-schedules/vesting-schedule.entity';
import { Holding } from './holding.entity';

export interface EntityRow {
  id: string;
  ownerUserId: string | null;
}

/** A membership of an entity in a (not deleted) organization. */
export interface EntityMembership {
  memberId: string;
  organizationId: string;
  organizationName: string;
}

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

  /**
   * The holdings of the user's own member records (not removed) in organizations that are not
   * deleted, oldest first.
   */
  ofUser(userId: string, limit: number, offset: number): Promise<Holding[]> {
    return this.repository
      .createQueryBuilder('h')
      .where(
        `h.member_id IN (SELECT m.id FROM member m JOIN organization o ON o.id = m.organization_id
           WHERE m.user_id = :userId AND m.status <> 'removed' AND o.deleted_at IS NULL)`,
        { userId },
      )
      .orderBy('h.created', 'ASC')
      .addOrderBy('h.id', 'ASC')
      .limit(limit)
      .offset(offset)
      .getMany();
  }

  ofMembers(memberIds: string[]): Promise<Holding[]> {
    if (!memberIds.length) return Promise.resolve([]);
    return this.repository.find({
      where: { memberId: In(memberIds) },
      order: { created: 'ASC', id: 'ASC' },
    });
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

  async entity(id: string): Promise<EntityRow | null> {
    const rows = (await this.repository.query(
      'SELECT id, owner_user_id AS "ownerUserId" FROM entity WHERE id = $1',
      [id],
    )) as EntityRow[];
    return rows[0] ?? null;
  }

  /** The entity's current member records, by organization name. */
  membershipsOf(entityId: string): Promise<EntityMembership[]> {
    return this.repository.query(
      `SELECT m.id AS "memberId", o.id AS "organizationId", o.name AS "organizationName"
       FROM member m JOIN organization o ON o.id = m.organization_id AND o.deleted_at IS NULL
       WHERE m.entity_id = $1 AND m.status <> 'removed'
       ORDER BY o.name, o.id, m.created, m.id`,
      [entityId],
    ) as Promise<EntityMembership[]>;
  }
}
