import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { DataSource } from 'typeorm';
import { ActivityAction } from '../../../src/activity/activity-action.entity';
import { OutboxEvent } from '../../../src/events/outbox-event.entity';
import { OutboxRelay, toEnvelope } from '../../../src/events/outbox-relay.service';
import { OutboxService } from '../../../src/events/outbox.service';
import { EventConsumers } from '../../../src/events/event-consumers';
import { QueueName } from '../../../src/events/queues';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../../support/app';
import { eventually, sleep } from '../../support/eventually';

async function commitEvent(t: TestApp, organizationId: string, rollback = false) {
  const ds = t.get<DataSource>(DataSource);
  const outbox = t.get<OutboxService>(OutboxService);
  await ds
    .transaction(async (manager) => {
      await outbox.record(manager, {
        type: 'organization.updated',
        organizationId,
        object: { id: organizationId, name: 'Acme' },
        previous: { name: 'Old' },
      });
      if (rollback) throw new Error('roll back');
    })
    .catch((err: Error) => {
      if (!rollback) throw err;
    });
}

const activityCount = (t: TestApp, organizationId: string) =>
  t.get<DataSource>(DataSource).getRepository(ActivityAction).countBy({ organizationId });

describe('outbox → relay → queue → idempotent consumer', () => {
  let database: TestDatabase;
  const redisPrefix = `lltest:outbox:${randomUUID().slice(0, 8)}:`;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('refuses to record an event outside a transaction', async () => {
    const t = await createTestApp({ database, redisPrefix });
    try {
      const outbox = t.get<OutboxService>(OutboxService);
      const manager = t.get<DataSource>(DataSource).manager;
      await expect(
        outbox.record(manager, { type: 'organization.updated', organizationId: null, object: {} }),
      ).rejects.toThrow(/transaction/);
    } finally {
      await t.close({ keepData: true });
    }
  });

  it('records the events of one call in their order (across statements), data as it goes on the wire', async () => {
    // Queues of its own, and its rows deleted at the end: the other tests count jobs and events.
    const t = await createTestApp({ database, redisPrefix: `${redisPrefix}order:` });
    const org = randomUUID();
    try {
      const actor = randomUUID();
      const at = new Date('2026-01-02T03:04:05.678Z');
      const ds = t.get<DataSource>(DataSource);
      await ds.transaction((manager) =>
        t.get<OutboxService>(OutboxService).record(
          manager,
          ...Array.from({ length: 2100 }, (_, i) => ({
            type: i % 2 ? ('member.added' as const) : ('member.updated' as const),
            organizationId: org,
            actorUserId: i === 0 ? actor : null,
            object: { n: i, at, name: `quote " back \\ slash {${i}}` },
            ...(i === 1 ? { previous: { n: 0 } } : {}),
            ...(i === 2 ? { description: 'the third' } : {}),
            // Repeated ids are kept once; an event with no subjects has an empty list.
            ...(i === 3 ? { subjects: [actor, org, actor] } : {}),
          })),
        ),
      );
      const rows = await ds
        .getRepository(OutboxEvent)
        .find({ where: { organizationId: org }, order: { sequence: 'ASC' } });
      expect(rows.map((r) => (r.data.object as { n: number }).n)).toEqual(
        Array.from({ length: 2100 }, (_, i) => i),
      );
      expect(new Set(rows.map((r) => r.id)).size).toBe(2100);
      expect(rows[0]).toMatchObject({
        type: 'member.updated',
        actorUserId: actor,
        description: null,
        data: {
          object: { n: 0, at: '2026-01-02T03:04:05.678Z', name: 'quote " back \\ slash {0}' },
          previous_attributes: {},
        },
      });
      expect(rows[1]).toMatchObject({
        type: 'member.added',
        actorUserId: null,
        data: { previous_attributes: { n: 0 } },
      });
      expect(rows[2].description).toBe('the third');
      expect(rows[3].subjectMemberIds).toEqual([actor, org]);
      expect(rows[2].subjectMemberIds).toEqual([]);
      expect(rows[0].apiVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    } finally {
      await t
        .get<DataSource>(DataSource)
        .getRepository(OutboxEvent)
        .delete({ organizationId: org });
      await t.close({ keepData: true });
    }
  });

  it('a rolled-back transaction leaves no event and produces no job', async () => {
    const t = await createTestApp({ database, redisPrefix });
    try {
      const org = randomUUID();
      await commitEvent(t, org, true);
      await t.get<OutboxRelay>(OutboxRelay).relayPending();
      const pending = await t
        .get<DataSource>(DataSource)
        .getRepository(OutboxEvent)
        .countBy({ organizationId: org });
      expect(pending).toBe(0);
      const counts = await t.get<Queue>(getQueueToken(QueueName.Activity)).getJobCounts();
      expect(counts.waiting + counts.active + counts.delayed).toBe(0);
      await sleep(300);
      expect(await activityCount(t, org)).toBe(0);
    } finally {
      await t.close({ keepData: true });
    }
  });

  it('a committed event is processed exactly once, with the envelope of spec section 6', async () => {
    const t = await createTestApp({ database, redisPrefix });
    try {
      const org = randomUUID();
      await commitEvent(t, org);
      await eventually(async () => (await activityCount(t, org)) === 1);
      await sleep(300);
      expect(await activityCount(t, org)).toBe(1);
      const row = await t
        .get<DataSource>(DataSource)
        .getRepository(ActivityAction)
        .findOneByOrFail({ organizationId: org });
      expect(row.type).toBe('organization.updated');
      expect(row.eventId).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(row.metadata).toMatchObject({
        data: { object: { name: 'Acme' }, previous_attributes: { name: 'Old' } },
      });
    } finally {
      await t.close({ keepData: true });
    }
  });

  it('an event committed while the app stops is relayed after restart, once', async () => {
    const org = randomUUID();
    const first = await createTestApp({
      database,
      redisPrefix,
      env: { OUTBOX_RELAY_INTERVAL_MS: '0' },
    });
    await commitEvent(first, org);
    await sleep(200);
    expect(await activityCount(first, org)).toBe(0);
    await first.close({ keepData: true });

    const second = await createTestApp({ database, redisPrefix });
    try {
      await eventually(async () => (await activityCount(second, org)) === 1);
      await sleep(300);
      expect(await activityCount(second, org)).toBe(1);
    } finally {
      await second.close({ keepData: true });
    }
  });

  it('a redelivered job (relay died after enqueueing) does not process the event twice', async () => {
    const t = await createTestApp({ database, redisPrefix });
    try {
      const org = randomUUID();
      await commitEvent(t, org);
      await eventually(async () => (await activityCount(t, org)) === 1);
      const event = await t
        .get<DataSource>(DataSource)
        .getRepository(OutboxEvent)
        .findOneByOrFail({ organizationId: org });
      const queue = t.get<Queue>(getQueueToken(QueueName.Activity));
      const again = await queue.add(toEnvelope(event), { jobId: `${event.id}:redelivery` });
      await eventually(async () => (await again.getState()) === 'completed');
      expect(await activityCount(t, org)).toBe(1);
    } finally {
      await t.close({ keepData: true });
    }
  });

  it('keeps an event pending while no consumer of one of its routes runs here, reports it after a minute, and another instance relays it', async () => {
    const org = randomUUID();
    const pendingRow = (t: TestApp) =>
      t
        .get<DataSource>(DataSource)
        .getRepository(OutboxEvent)
        .findOneByOrFail({ organizationId: org });

    // No billing consumer in this process (an instance of a version before the billing module
    // consumed its queue): the event is not selected, so not relayed, tick after tick.
    const first = await createTestApp({ database, redisPrefix });
    const active = (first.get<EventConsumers>(EventConsumers) as unknown as { active: Set<string> })
      .active;
    active.delete(QueueName.BillingCounts);
    try {
      await first.get<DataSource>(DataSource).transaction((manager) =>
        first.get<OutboxService>(OutboxService).record(manager, {
          type: 'billing.shareholder_count_changed',
          organizationId: org,
          object: { organization: org },
        }),
      );
      const relay = first.get<OutboxRelay>(OutboxRelay);
      await relay.relayPending();
      await sleep(300);
      expect((await pendingRow(first)).relayedAt).toBeNull();
      // Not counted while young: another instance may be about to relay it.
      let health = await first.http.get('/health').expect(200);
      expect(health.body.info.outbox).toEqual({ status: 'up', unrouted: 0 });
      await first
        .get<DataSource>(DataSource)
        .query(
          `UPDATE outbox_event SET created = now() - interval '2 minutes' WHERE organization_id = $1`,
          [org],
        );
      health = await first.http.get('/health').expect(200);
      expect(health.body.info.outbox).toEqual({ status: 'up', unrouted: 1 });

      // An instance running beside it that consumes the queue relays it at its next tick.
      const second = await createTestApp({ database, redisPrefix });
      try {
        expect(second.get<EventConsumers>(EventConsumers).has(QueueName.BillingCounts)).toBe(true);
        await eventually(async () => (await pendingRow(second)).relayedAt !== null);
        const id = (await pendingRow(second)).id;
        // Handed to the billing queue (whose consumer then fails: the organization is made up).
        const queue = second.get<Queue>(getQueueToken(QueueName.BillingCounts));
        expect((await queue.getJob(id))?.data).toMatchObject({ id, organization: org });
      } finally {
        await second.close({ keepData: true });
      }
      health = await first.http.get('/health').expect(200);
      expect(health.body.info.outbox).toEqual({ status: 'up', unrouted: 0 });
    } finally {
      await first.close({ keepData: true });
    }
  });

  it('relays, at its next tick, a type it could not route once its consumer runs (no restart)', async () => {
    const org = randomUUID();
    const t = await createTestApp({ database, redisPrefix });
    const active = (t.get<EventConsumers>(EventConsumers) as unknown as { active: Set<string> })
      .active;
    active.delete(QueueName.BillingCounts);
    try {
      const ds = t.get<DataSource>(DataSource);
      await ds.transaction((manager) =>
        t.get<OutboxService>(OutboxService).record(manager, {
          type: 'billing.member_count_changed',
          organizationId: org,
          object: { organization: org },
        }),
      );
      await sleep(500);
      const row = () => ds.getRepository(OutboxEvent).findOneByOrFail({ organizationId: org });
      expect((await row()).relayedAt).toBeNull();
      active.add(QueueName.BillingCounts);
      await eventually(async () => (await row()).relayedAt !== null);
    } finally {
      await t.close({ keepData: true });
    }
  });
});
