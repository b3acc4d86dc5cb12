import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { AccessContext, DomainError } from '../common';
import { Audience, membersOfUserSql } from '../organizations';
import { ActivityAction } from './activity-action.entity';
import { CreateActionDto, DEFAULT_LIST_LIMIT, ListActionsQuery } from './activity.dto';
import { ActivityActionView, toActivityActionView } from './activity.view';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Entries written with `POST .../action` are the members' own notes: the whole organization. */
const WRITTEN_ENTRY_AUDIENCE: Audience = { permission: 'canViewOrganization', members: [] };

/** An organization's activity log (spec 4.9): entries written by users and derived from events. */
@Injectable()
export class ActivityService {
  constructor(
    @InjectRepository(ActivityAction) private readonly actions: Repository<ActivityAction>,
  ) {}

  /** A user-written entry. It is the log itself, so it records no domain event. */
  async record(
    organizationId: string,
    userId: string,
    dto: CreateActionDto,
  ): Promise<ActivityActionView> {
    const action = await this.actions.save(
      this.actions.create({
        organizationId,
        userId,
        type: dto.type,
        description: dto.description,
        metadata: dto.metadata ?? {},
        eventId: null,
        audiencePermission: WRITTEN_ENTRY_AUDIENCE.permission,
        audienceMemberIds: [...WRITTEN_ENTRY_AUDIENCE.members],
      }),
    );
    return toActivityActionView(action);
  }

  /**
   * Newest first in (created, id) order, only the entries the caller may read (their role holds the
   * entry's permission, or the entry is about one of their member records), so `limit` counts
   * entries the caller sees. `before` must be such an entry (else 400).
   */
  async list(access: AccessContext, query: ListActionsQuery): Promise<ActivityActionView[]> {
    const qb = this.visible(access, 'a')
      .orderBy('a.created', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .limit(query.limit ?? DEFAULT_LIST_LIMIT);
    if (query.before) {
      const cursor = await this.visible(access, 'c')
        .andWhere('c.id = :before', { before: query.before })
        .getExists();
      if (!cursor)
        throw DomainError.badRequest('before must be the id of an action of this organization');
      // Compared in SQL: timestamptz has microseconds, a JavaScript Date only milliseconds.
      qb.andWhere(
        '(a.created, a.id) < (SELECT c.created, c.id FROM activity_action c WHERE c.id = :before)',
        { before: query.before },
      );
    }
    if (query.type) {
      qb.andWhere("a.type LIKE :prefix ESCAPE '\\'", { prefix: `${escapeLike(query.type)}%` });
    }
    return (await qb.getMany()).map(toActivityActionView);
  }

  /** The organization's entries that the caller's permissions or member records let them read. */
  private visible(access: AccessContext, alias: string): SelectQueryBuilder<ActivityAction> {
    return this.actions
      .createQueryBuilder(alias)
      .where(`${alias}.organization_id = :organizationId`, {
        organizationId: access.organizationId,
      })
      .andWhere(
        `(${alias}.audience_permission = ANY(:permissions) OR ${alias}.audience_member_ids && ARRAY${membersOfUserSql(':organizationId', ':userId')})`,
        { permissions: [...access.permissions], userId: access.userId },
      );
  }
}
