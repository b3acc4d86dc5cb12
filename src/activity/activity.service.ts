import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { DomainError } from '../common';
import { ActivityAction } from './activity-action.entity';
import { CreateActionDto, DEFAULT_LIST_LIMIT, ListActionsQuery } from './activity.dto';
import { ActivityActionView, toActivityActionView } from './activity.view';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

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
      }),
    );
    return toActivityActionView(action);
  }

  /** Newest first in (created, id) order; `before` must be an entry of this organization (else 400). */
  async list(organizationId: string, query: ListActionsQuery): Promise<ActivityActionView[]> {
    const repo = this.actions;
    const qb = repo
      .createQueryBuilder('a')
      .where('a.organization_id = :organizationId', { organizationId })
      .orderBy('a.created', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .limit(query.limit ?? DEFAULT_LIST_LIMIT);
    if (query.before) {
      const cursor = await repo.exists({ where: { id: query.before, organizationId } });
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
}
