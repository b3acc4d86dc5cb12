import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { API_VERSION } from './event-envelope';
import { OutboxEvent } from './outbox-event.entity';

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
    const rows = events.map((e) =>
      manager.create(OutboxEvent, {
        id: newEventId(),
        type: e.type,
        organizationId: e.organizationId,
        actorUserId: e.actorUserId ?? null,
        data: { object: toPlain(e.object), previous_attributes: toPlain(e.previous ?? {}) },
        description: e.description ?? null,
        apiVersion: API_VERSION,
      }),
    );
    // jsonb columns defeat TypeORM's deep-partial typing; the rows are complete entities.
    await manager.insert(OutboxEvent, rows as QueryDeepPartialEntity<OutboxEvent>[]);
  }
}

/** Entities to plain JSON (dates as ISO strings), as they would be sent on the wire. */
const toPlain = (value: object): Record<string, unknown> => JSON.parse(JSON.stringify(value));

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
