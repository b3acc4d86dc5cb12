import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AgentSystemEvent } from './agent-system-event.entity';

/** The longest text of one event (a hook's summary is cut here). */
export const SYSTEM_EVENT_CHARS = 4000;
/** Pending events one heartbeat takes at most (the rest wait for the next one). */
export const EVENTS_PER_HEARTBEAT = 50;

/** System events of organizations' main conversations. */
@Injectable()
export class SystemEvents {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records a pending event; true when new (an identical pending text is coalesced). */
  async record(organizationId: string, text: string, source: string): Promise<boolean> {
    const inserted = await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(AgentSystemEvent)
      .values({
        organizationId,
        text: text.slice(0, SYSTEM_EVENT_CHARS),
        source: source.slice(0, 200),
      })
      .orIgnore()
      .returning(['id'])
      .execute();
    return inserted.raw.length > 0;
  }

  /** Whether the organization has pending events. */
  hasPending(organizationId: string): Promise<boolean> {
    return this.dataSource.manager.existsBy(AgentSystemEvent, {
      organizationId,
      consumedAt: null as never,
    });
  }

  /**
   * Takes the oldest pending events (at most EVENTS_PER_HEARTBEAT) and marks them consumed, in
   * one statement: two heartbeats at once never take the same event.
   */
  async take(organizationId: string): Promise<{ text: string; source: string }[]> {
    const rows = (await this.dataSource.query(
      `UPDATE agent_system_event SET consumed_at = now()
       WHERE id IN (SELECT id FROM agent_system_event
                    WHERE organization_id = $1 AND consumed_at IS NULL
                    ORDER BY created LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING text, source, created`,
      [organizationId, EVENTS_PER_HEARTBEAT],
    )) as [{ text: string; source: string; created: Date }[], number];
    return rows[0]
      .sort((a, b) => a.created.getTime() - b.created.getTime())
      .map(({ text, source }) => ({ text, source }));
  }

  /** Organizations with pending events (the periodic heartbeat wakes each). */
  async organizationsWithPending(limit = 1000): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT DISTINCT organization_id FROM agent_system_event WHERE consumed_at IS NULL LIMIT $1`,
      [limit],
    )) as { organization_id: string }[];
    return rows.map((r) => r.organization_id);
  }
}
