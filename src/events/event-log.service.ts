import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { DomainError } from '../common';
import { PUBLIC_EVENT_TYPES, PublicEventType } from './event-catalogue';
import { OutboxEvent } from './outbox-event.entity';
import type { PublicEvent } from './public-event';

export interface EventPage {
  /** One type of the catalogue; all of them when absent. */
  type?: PublicEventType;
  limit: number;
  /** An event id of the organization: only events recorded before it. */
  after?: string;
}

const toPublic = (e: OutboxEvent): PublicEvent => ({
  id: e.id,
  type: e.type as PublicEventType,
  api_version: e.apiVersion,
  created: e.created.toISOString(),
  organization: e.organizationId!,
  data: e.data,
});

/**
 * The stored events of an organization whose type is in the catalogue, as the event list shows
 * them: the outbox keeps every event for 30 days (OutboxCleanup).
 */
@Injectable()
export class EventLog {
  constructor(@InjectRepository(OutboxEvent) private readonly events: Repository<OutboxEvent>) {}

  /** Newest first (the order the events were written). */
  async list(organizationId: string, page: EventPage): Promise<PublicEvent[]> {
    const query = this.events
      .createQueryBuilder('e')
      .where('e.organizationId = :organizationId', { organizationId })
      .andWhere('e.type IN (:...types)', { types: page.type ? [page.type] : PUBLIC_EVENT_TYPES })
      .orderBy('e.sequence', 'DESC')
      .limit(page.limit);
    if (page.after) {
      const cursor = await this.find(organizationId, page.after);
      if (!cursor) throw DomainError.badRequest('after must be an event of this organization');
      query.andWhere('e.sequence < :sequence', { sequence: cursor.sequence });
    }
    return (await query.getMany()).map(toPublic);
  }

  /** One event of the organization; undefined for another organization's or an internal one. */
  async get(organizationId: string, id: string): Promise<PublicEvent | undefined> {
    const event = await this.find(organizationId, id);
    return event && toPublic(event);
  }

  private async find(organizationId: string, id: string) {
    return (
      (await this.events.findOneBy({ id, organizationId, type: In([...PUBLIC_EVENT_TYPES]) })) ??
      undefined
    );
  }
}
