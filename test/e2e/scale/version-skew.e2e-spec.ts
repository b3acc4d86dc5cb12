import { randomUUID } from 'node:crypto';
import { BullModule, Process, Processor } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import type { Job } from 'bull';
import { DataSource } from 'typeorm';
import { ActivityAction } from '../../../src/activity/activity-action.entity';
import { EventConsumers, EventEnvelope, OnDomainEvent } from '../../../src/events';
import { OutboxEvent } from '../../../src/events/outbox-event.entity';
import { OutboxRelay } from '../../../src/events/outbox-relay.service';
import { OutboxService } from '../../../src/events/outbox.service';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../../support/app';
import { eventually, sleep } from '../../support/eventually';

/** The queue a newer version adds, with a consumer of `organization.updated`. */
const AUDIT = 'test-audit';
const audited: string[] = [];

@OnDomainEvent('organization.updated')
@Processor(AUDIT)
class AuditConsumer {
  constructor(private readonly consumers: EventConsumers) {}

  @Process()
  async handle(job: Job<EventEnvelope>) {
    await this.consumers.once(AUDIT, job.data.id, async () => {
      audited.push(job.data.id);
    });
  }
}

@Module({ imports: [BullModule.registerQueue({ name: AUDIT })], providers: [AuditConsumer] })
class AuditModule {}

/**
 * A rolling upgrade whose new version adds a queue and a route: its migration writes the route,
 * and the instances of the old version, which do not consume the queue, leave the route's events
 * pending rather than relay them without it; an instance of the new version relays them to both
 * queues. Two instances of the app on one database and one Redis, like two pods.
 */
describe('version skew loses no event', () => {
  let database: TestDatabase;
  let old: TestApp;
  let newer: TestApp | undefined;
  const redisPrefix = `lltest:skew:${randomUUID().slice(0, 8)}:`;
  beforeAll(async () => {
    database = await createTestDatabase();
    old = await createTestApp({ database, redisPrefix });
  });
  afterAll(async () => {
    await newer?.close({ keepData: true });
    await old.close();
  });

  const record = (t: TestApp, org: string, type: 'organization.updated' | 'member.updated') =>
    t.get<DataSource>(DataSource).transaction((manager) =>
      t.get<OutboxService>(OutboxService).record(manager, {
        type,
        organizationId: org,
        object: { id: org, name: 'Acme' },
      }),
    );
  const eventsOf = (org: string) =>
    old
      .get<DataSource>(DataSource)
      .getRepository(OutboxEvent)
      .find({ where: { organizationId: org }, order: { sequence: 'ASC' } });
  const activityOf = (org: string) =>
    old.get<DataSource>(DataSource).getRepository(ActivityAction).countBy({ organizationId: org });

  it('the old instance leaves the new route’s events pending; the new one delivers them to both queues, once', async () => {
    const org = randomUUID();
    // The newer version's migration ran (it starts first and migrates the shared database).
    await old
      .get<DataSource>(DataSource)
      .query(`INSERT INTO event_route (event_type, queue) VALUES ('organization.updated', $1)`, [
        AUDIT,
      ]);
    for (let i = 0; i < 5; i++) await record(old, org, 'organization.updated');
    // A type whose routes the old instance consumes all of is still relayed by it.
    await record(old, org, 'member.updated');
    await old.get<OutboxRelay>(OutboxRelay).relayPending();
    await eventually(async () => (await activityOf(org)) === 1, 30_000);
    await sleep(500);
    const pending = (await eventsOf(org)).filter((e) => e.relayedAt === null);
    expect(pending.map((e) => e.type)).toEqual(Array(5).fill('organization.updated'));
    expect(audited).toEqual([]);

    newer = await createTestApp({ database, redisPrefix, imports: [AuditModule] });
    await eventually(async () => (await activityOf(org)) === 6, 30_000);
    const ids = pending.map((e) => e.id);
    await eventually(async () => ids.every((id) => audited.includes(id)), 30_000);
    expect((await eventsOf(org)).every((e) => e.relayedAt !== null)).toBe(true);
    await sleep(500);
    expect(await activityOf(org)).toBe(6);
    expect(audited.filter((id) => ids.includes(id))).toHaveLength(5);
  }, 120_000);
});
