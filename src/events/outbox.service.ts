import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { API_VERSION } from './event-envelope';

export interface DomainEvent {
  type: string;
  organizationId: string | null;
  actorUserId?: string | null;
  object: object;
  /** For `.updated` events: the changed fields with their previous values. */
  previous?: Record<string, unknown>;
  /** What happened, in words, naming what changed (becomes the activity entry's description). */
  description?: string;
}

export const newEventId = () => `evt_${randomBytes(16).toString('hex')}`;

/**
 * All the events of a call in one statement, each column an array (one round trip, one short
 * statement to parse, however many events; TypeORM's insert sent a parameter a field). `sequence`, the
 * relay's order, is drawn after the sort, so it follows the order the events were given in.
 * `data` is JSON text as the event would go on the wire (dates as ISO strings).
 */
const INSERT_EVENTS = `
  INSERT INTO outbox_event (id, type, organization_id, actor_user_id, data, description, api_version)
  SELECT id, type, organization_id, actor_user_id, data::jsonb, description, $7
  FROM unnest($1::varchar[], $2::varchar[], $3::uuid[], $4::uuid[], $5::text[], $6::text[])
    WITH ORDINALITY AS e(id, type, organization_id, actor_user_id, data, description, n)
  ORDER BY n`;

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
    if (!events.length) return;
    const column = <T>(value: (e: DomainEvent) => T) => events.map(value);
    await manager.query(INSERT_EVENTS, [
      column(() => newEventId()),
      column((e) => e.type),
      column((e) => e.organizationId),
      column((e) => e.actorUserId ?? null),
      column((e) => JSON.stringify({ object: e.object, previous_attributes: e.previous ?? {} })),
      column((e) => e.description ?? null),
      API_VERSION,
    ]);
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
