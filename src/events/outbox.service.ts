import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { API_VERSION } from './event-envelope';
import type { EventType } from './event-types';

export interface DomainEvent {
  type: EventType;
  organizationId: string | null;
  actorUserId?: string | null;
  object: object;
  /** For `.updated` events: the changed fields with their previous values. */
  previous?: Record<string, unknown>;
  /** What happened, in words, naming what changed (becomes the activity entry's description). */
  description?: string;
  /**
   * The members the event is about who may read every record it carries through that record's
   * own route without a role permission (the holder of a shareholding, grant or member record).
   * The activity log shows the event to them; it is not part of outbound deliveries.
   */
  subjects?: readonly string[];
  /**
   * Parts read when the event is written, at the end of the change's transaction, in the same
   * statement: SQL expressions over the event's row `e` (its `organization_id`), the `object`
   * (jsonb) and `description` (text) replacing the given ones. For a figure the change's writes
   * (and the database's triggers) decide, without a round trip to read it first. The SQL is the
   * recording module's own (its tables), marked with `ownedSql`.
   */
  atCommit?: { object: string; description: string };
}

export const newEventId = () => `evt_${randomBytes(16).toString('hex')}`;

/**
 * Events per statement: the statement's cost grows faster than its rows (measured on 10,000
 * events: five statements of 2,000 take ~250 ms, one of 10,000 ~550 ms).
 */
const EVENTS_PER_STATEMENT = 2000;

/**
 * The events of a call in few statements, each column an array (one short statement to parse
 * per EVENTS_PER_STATEMENT events; TypeORM's insert sent a parameter a field). `sequence`, the
 * relay's order, is drawn after the sort, so it follows the order the events were given in.
 * `data` is JSON text as the event would go on the wire (dates as ISO strings).
 */
const insertEvents = (chunk: DomainEvent[]) => {
  /** The events' parts read at commit, by their position in the chunk. */
  const atCommit = (part: 'object' | 'description', given: string) => {
    const cases = chunk.flatMap((ev, i) =>
      ev.atCommit
        ? [
            `WHEN ${i + 1} THEN ${
              part === 'object'
                ? `jsonb_build_object('object', ${ev.atCommit.object}, 'previous_attributes', '{}'::jsonb)`
                : ev.atCommit.description
            }`,
          ]
        : [],
    );
    return cases.length ? `CASE e.n ${cases.join(' ')} ELSE ${given} END` : given;
  };
  return `
  INSERT INTO outbox_event
    (id, type, organization_id, actor_user_id, data, description, subject_member_ids, api_version)
  SELECT e.id, e.type, e.organization_id, e.actor_user_id, ${atCommit('object', 'e.data::jsonb')},
         ${atCommit('description', 'e.description')},
         CASE WHEN subjects = '' THEN '{}'::uuid[] ELSE string_to_array(subjects, ',')::uuid[] END, $8
  FROM unnest($1::varchar[], $2::varchar[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[])
    WITH ORDINALITY AS e(id, type, organization_id, actor_user_id, data, description, subjects, n)
  ORDER BY e.n`;
};

/**
 * Records domain events as outbox rows. Takes the EntityManager of the caller's transaction (see
 * UnitOfWork), so an event exists exactly when the change that caused it was committed.
 */
@Injectable()
export class OutboxService {
  async record(manager: EntityManager, ...events: DomainEvent[]): Promise<void> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('OutboxService.record must run inside the transaction of the change');
    }
    for (let start = 0; start < events.length; start += EVENTS_PER_STATEMENT) {
      const chunk = events.slice(start, start + EVENTS_PER_STATEMENT);
      const column = <T>(value: (e: DomainEvent) => T) => chunk.map(value);
      const params: unknown[] = [
        column(() => newEventId()),
        column((e) => e.type),
        column((e) => e.organizationId),
        column((e) => e.actorUserId ?? null),
        column((e) => JSON.stringify({ object: e.object, previous_attributes: e.previous ?? {} })),
        column((e) => e.description ?? null),
        // A member id list per event as text: PostgreSQL's unnest cannot take a ragged array.
        column((e) => [...new Set(e.subjects ?? [])].join(',')),
        API_VERSION,
      ];
      await manager.query(insertEvents(chunk), params);
    }
  }
}

/** The changed fields of `before` compared to `after`, with their previous values. */
export function previousAttributes<T extends object>(before: T, after: T): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      changed[key as string] = before[key] ?? null;
    }
  }
  return changed;
}
