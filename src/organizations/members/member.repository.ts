import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { FindOptionsWhere, Not, Repository } from 'typeorm';
import { AggregateRepository, inBatches, InTransaction } from '../../database';
import { OWNER_ROLE_ID } from '../permissions/permissions';
import { Member, MemberStatus } from './member.entity';

/**
 * The member list as JSON, built by PostgreSQL: explicit columns in the order of MemberView,
 * timestamps formatted as `toISOString()` would, no entity hydration and no Date round trip.
 * `$1` is the organization, `$2` a user id to keep only that user's row (or null).
 */
export const MEMBER_LIST_SQL = `
  SELECT coalesce('[' || string_agg(row_to_json(t)::text, ',' ORDER BY t.created, t.id) || ']', '[]') AS json
  FROM (
    SELECT m.id, m.organization_id AS organization, m.user_id AS "user", m.entity_id AS entity,
           m.name, m.email, m.title, m.role_id AS role, m.status,
           to_char(m.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created,
           to_char(m.updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated
    FROM member m
    WHERE m.organization_id = $1 AND m.status <> 'removed' AND ($2::uuid IS NULL OR m.user_id = $2)
  ) t`;

/** What other modules may know of a member. */
export interface MemberFactsRow {
  id: string;
  organizationId: string;
  userId: string | null;
  entityId: string | null;
  name: string;
  email: string | null;
  /** `active`, `invited` (no account linked yet) or `removed`. */
  status: MemberStatus;
}

/** A member as a stakeholder list shows it (the OCF export). */
export interface MemberListingRow {
  id: string;
  name: string;
  email: string | null;
  title: string | null;
  status: string;
}

/** A current member record of an entity, with its organization (not deleted). */
export interface EntityMembershipRow {
  memberId: string;
  organizationId: string;
  organizationName: string;
}

/** Members of organizations. "Current" means not removed (active or invited). */
@Injectable()
export class MemberRepository extends AggregateRepository<Member> {
  constructor(@InjectRepository(Member) members: Repository<Member>) {
    super(members);
  }

  /** Current members as a JSON array, oldest first; only the user's own row with `onlyUserId`. */
  async listJson(organizationId: string, onlyUserId?: string): Promise<string> {
    const rows = await this.prepared<{ json: string }>(MEMBER_LIST_SQL, [
      organizationId,
      onlyUserId ?? null,
    ]);
    return rows[0].json;
  }

  /**
   * Plain facts of members by id, in one array parameter (a dashboard asks for thousands); in
   * the caller's transaction when given (an export's snapshot).
   */
  async factsByIds(
    organizationId: string,
    ids: string[],
    tx?: InTransaction,
  ): Promise<MemberFactsRow[]> {
    const sql = `SELECT id, organization_id AS "organizationId", user_id AS "userId",
              entity_id AS "entityId", name, email, status
       FROM member WHERE organization_id = $1 AND id = ANY($2::uuid[])`;
    if (tx) return (await tx.manager.query(sql, [organizationId, ids])) as MemberFactsRow[];
    return this.prepared<MemberFactsRow>(sql, [organizationId, ids]);
  }

  /**
   * Members by id, removed ones too, in name order (bytewise, whatever the server's collation),
   * a batch at a time through a cursor of the caller's transaction.
   */
  listingByName(
    tx: InTransaction,
    organizationId: string,
    ids: string[],
  ): AsyncGenerator<MemberListingRow[]> {
    return inBatches<MemberListingRow>(
      tx,
      `SELECT m.id, m.name, m.email, m.title, m.status
       FROM member m WHERE m.organization_id = $1 AND m.id = ANY($2::uuid[])
       ORDER BY m.name COLLATE "C", m.id`,
      [organizationId, ids],
    );
  }

  /** The ids of the user's current member records in organizations that are not deleted. */
  async idsOfUser(userId: string): Promise<string[]> {
    const rows = await this.prepared<{ id: string }>(
      `SELECT m.id FROM member m JOIN organization o ON o.id = m.organization_id
       WHERE m.user_id = $1 AND m.status <> 'removed' AND o.deleted_at IS NULL`,
      [userId],
    );
    return rows.map((r) => r.id);
  }

  /** The entity's current member records in organizations not deleted, by organization name. */
  membershipsOfEntity(entityId: string): Promise<EntityMembershipRow[]> {
    return this.repository.query(
      `SELECT m.id AS "memberId", o.id AS "organizationId", o.name AS "organizationName"
       FROM member m JOIN organization o ON o.id = m.organization_id AND o.deleted_at IS NULL
       WHERE m.entity_id = $1 AND m.status <> 'removed'
       ORDER BY o.name, o.id, m.created, m.id`,
      [entityId],
    ) as Promise<EntityMembershipRow[]>;
  }

  find(organizationId: string, id: string, tx?: InTransaction): Promise<Member | null> {
    return this.repo(tx).findOneBy({ id, organizationId, status: Not('removed') });
  }

  lock(organizationId: string, id: string, tx: InTransaction): Promise<Member | null> {
    return this.repo(tx).findOne({
      where: { id, organizationId, status: Not('removed') },
      lock: { mode: 'pessimistic_write' },
    });
  }

  findManyBy(where: FindOptionsWhere<Member>): Promise<Member[]> {
    return this.repository.findBy(where);
  }

  findCurrentByEmail(organizationId: string, email: string, tx: InTransaction) {
    return this.repo(tx).findOneBy({ organizationId, email, status: Not('removed') });
  }

  /** Current members having one of the e-mail addresses or names, oldest first. */
  currentByEmailsOrNames(
    organizationId: string,
    emails: string[],
    names: string[],
    tx: InTransaction,
  ): Promise<Pick<Member, 'id' | 'name' | 'email'>[]> {
    return this.repo(tx)
      .createQueryBuilder('m')
      .select(['m.id', 'm.name', 'm.email'])
      .where("m.organization_id = :organizationId AND m.status <> 'removed'", { organizationId })
      .andWhere('(m.email = ANY(:emails) OR m.name = ANY(:names))', { emails, names })
      .orderBy('m.created', 'ASC')
      .addOrderBy('m.id', 'ASC')
      .getMany();
  }

  /** Inserts complete rows (ids and timestamps set) in one statement, thousands at a time. */
  async insertMany(members: Member[], tx: InTransaction): Promise<void> {
    if (!members.length) return;
    const column = <K extends keyof Member>(k: K) => members.map((m) => m[k]);
    await tx.manager.query(
      `INSERT INTO member (id, organization_id, user_id, entity_id, name, email, title, role_id,
                           status, removed_at, created, updated)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::varchar[],
                            $6::varchar[], $7::varchar[], $8::uuid[], $9::varchar[],
                            $10::timestamptz[], $11::timestamptz[], $12::timestamptz[])`,
      [
        column('id'),
        column('organizationId'),
        column('userId'),
        column('entityId'),
        column('name'),
        column('email'),
        column('title'),
        column('roleId'),
        column('status'),
        column('removedAt'),
        column('created'),
        column('updated'),
      ],
    );
  }

  findActiveByUser(organizationId: string, userId: string, tx: InTransaction) {
    return this.repo(tx).findOneBy({ organizationId, userId, status: 'active' });
  }

  /** The organization's active Owners, locked. */
  lockOwners(organizationId: string, tx: InTransaction): Promise<Member[]> {
    return this.repo(tx).find({
      where: { organizationId, roleId: OWNER_ROLE_ID, status: 'active' },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Whether a current member has the role (read-locked, so it cannot be assigned meanwhile). */
  roleInUse(roleId: string, tx: InTransaction): Promise<boolean> {
    return this.repo(tx)
      .createQueryBuilder('mb')
      .setLock('pessimistic_read')
      .where("mb.role_id = :roleId AND mb.status <> 'removed'", { roleId })
      .getExists();
  }
}
