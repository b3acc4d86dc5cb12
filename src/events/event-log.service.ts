import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { DomainError } from '../common';
import { PUBLIC_EVENT_TYPES, PublicEventType } from './event-catalogue';
import { OutboxEvent } from './outbox-event.entity';
import type { PublicEvent } from './public-event';

export interface EventPage {
  /** One type of the catalogue; all of them when absent. */
  type?: PublicEventType;
  limit: number;
  /** An event id the reader sees: only events recorded before it. */
  after?: string;
}

/**
 * Which of an organization's events a caller reads. The audience rule is not the event log's
 * (organizations' `eventReaderOf` decides it, as for activity entries): the reader sees every
 * event of `allOf`, and the events whose subjects include one of `subjectOf`.
 */
export interface EventReader {
  /** Types whose every event the reader sees: their role holds the type's read permission. */
  allOf: readonly string[];
  /** The reader's member records: the events about them (their `subjects`) are theirs to see. */
  subjectOf: readonly string[];
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
 * them to one reader: the outbox keeps every event for 30 days (OutboxRetention).
 */
@Injectable()
export class EventLog {
  constructor(@InjectRepository(OutboxEvent) private readonly events: Repository<OutboxEvent>) {}

  /**
   * Newest first (the order the events were written), only the reader's, so `limit` counts events
   * the reader sees; `after` must be one of them (else 400).
   */
  async list(organizationId: string, reader: EventReader, page: EventPage): Promise<PublicEvent[]> {
    const query = this.visible('e', organizationId, reader, page.type)
      .orderBy('e.sequence', 'DESC')
      .limit(page.limit);
    if (page.after) {
      const cursor = await this.find(organizationId, reader, page.after);
      if (!cursor) throw DomainError.badRequest('after must be an event of this organization');
      query.andWhere('e.sequence < :sequence', { sequence: cursor.sequence });
    }
    return (await query.getMany()).map(toPublic);
  }

  /**
   * One event of the organization the reader sees; undefined for one they may not see, another
   * organization's, an internal or an unknown one alike.
   */
  async get(
    organizationId: string,
    reader: EventReader,
    id: string,
  ): Promise<PublicEvent | undefined> {
    const event = await this.find(organizationId, reader, id);
    return event && toPublic(event);
  }

  private async find(organizationId: string, reader: EventReader, id: string) {
    return (
      (await this.visible('e', organizationId, reader).andWhere('e.id = :id', { id }).getOne()) ??
      undefined
    );
  }

  /** The organization's catalogue events (of `type` when given) the reader sees, decided in SQL. */
  private visible(
    alias: string,
    organizationId: string,
    reader: EventReader,
    type?: PublicEventType,
  ): SelectQueryBuilder<OutboxEvent> {
    return this.events
      .createQueryBuilder(alias)
      .where(`${alias}.organizationId = :organizationId`, { organizationId })
      .andWhere(`${alias}.type IN (:...types)`, { types: type ? [type] : PUBLIC_EVENT_TYPES })
      .andWhere(
        `(${alias}.type = ANY(:allOf) OR ${alias}.subjectMemberIds && CAST(:subjectOf AS uuid[]))`,
        { allOf: [...reader.allOf], subjectOf: [...reader.subjectOf] },
      );
  }
}
