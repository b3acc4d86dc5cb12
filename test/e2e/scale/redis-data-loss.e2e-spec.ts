import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { DataSource } from 'typeorm';
import { OutboxRelay } from '../../../src/events/outbox-relay.service';
import { OutboxService } from '../../../src/events/outbox.service';
import { QueueName } from '../../../src/events/queues';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../../support/app';
import { createHolder } from '../../support/cap-table';
import { eventually, sleep } from '../../support/eventually';
import { createOrg } from '../../support/orgs';
import { RedisProcess } from '../../support/redis-process';
import { loggedInAgent } from '../../support/users';

/** The event queues: the ones the relay feeds. */
const EVENT_QUEUES = [
  QueueName.Activity,
  QueueName.BillingCounts,
  QueueName.Chat,
  QueueName.Referral,
  QueueName.Webhooks,
];

/**
 * Redis loses its data (no persistence, a failed disk): the event jobs relayed but not yet
 * consumed are gone, and the outbox says they were relayed. The re-relay finds the events a queue
 * left no processed marker for and hands them over again; each effect happens once.
 */
describe('Redis data loss', () => {
  const redis = new RedisProcess();
  let database: TestDatabase;
  const apps: TestApp[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const t = await createTestApp({ database, env: { REDIS_URL: redis.url, ...env } });
    apps.push(t);
    return t;
  };
  beforeAll(async () => {
    await redis.start();
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const t of apps.reverse()) await t.close({ keepData: true }).catch(() => undefined);
    await database.drop();
    await redis.remove();
  });

  it('the re-relay delivers the event jobs lost with the data, each effect once', async () => {
    const first = await start();
    let ds = first.get<DataSource>(DataSource);
    // The routes date from before the events (the template database was migrated just now).
    await ds.query(`UPDATE event_route SET created = now() - interval '1 day'`);
    // No worker takes a job: they wait in Redis when it loses them.
    for (const name of EVENT_QUEUES) await first.get<Queue>(getQueueToken(name)).pause();

    const owner = await loggedInAgent(first);
    const org = await createOrg(owner.agent);
    await createHolder(owner.agent, org.id);
    await ds.transaction((manager) =>
      first.get<OutboxService>(OutboxService).record(manager, {
        type: 'billing.member_count_changed',
        organizationId: org.id,
        object: { organization: org.id },
      }),
    );
    const ofTest = `(e.organization_id = $1 OR (e.type = 'user.registered' AND e.actor_user_id = $2))`;
    const params = [org.id, owner.user.id];
    const routes = async (where: string) =>
      (
        (await ds.query(
          `SELECT e.type || ' → ' || r.queue AS route
             FROM outbox_event e JOIN event_route r ON r.event_type = e.type
            WHERE ${ofTest} AND ${where} ORDER BY 1`,
          params,
        )) as { route: string }[]
      ).map((r) => r.route);
    const unconsumed = () =>
      routes(
        `NOT EXISTS (SELECT 1 FROM processed_event p WHERE p.consumer = r.queue AND p.event_id = e.id)`,
      );

    await first.get<OutboxRelay>(OutboxRelay).relayPending();
    await eventually(async () => (await routes('e.relayed_at IS NULL')).length === 0);
    const all = await routes('true');
    // Every event queue has jobs of the test's events, none consumed.
    expect(new Set(all.map((r) => r.split(' → ')[1]))).toEqual(new Set(EVENT_QUEUES));
    await sleep(300);
    expect(await unconsumed()).toEqual(all);
    const held = await first.get<Queue>(getQueueToken(QueueName.Activity)).getPausedCount();
    expect(held).toBeGreaterThan(0);
    await first.close({ keepData: true });
    apps.length = 0;

    await redis.loseData();

    // An instance on the empty Redis: nothing of the jobs is left, until the re-relay's turn.
    const second = await start({ OUTBOX_RERELAY_AFTER_MS: '1000' });
    const activity = second.get<Queue>(getQueueToken(QueueName.Activity));
    ds = second.get<DataSource>(DataSource);
    await eventually(async () => (await unconsumed()).length === 0, 45_000, 250);

    // Each effect once: one activity entry per event of the organization.
    const entries = (await ds.query(
      `SELECT a.event_id, count(*)::int AS n FROM activity_action a
        WHERE a.organization_id = $1 GROUP BY 1`,
      [org.id],
    )) as { event_id: string; n: number }[];
    expect(entries.length).toBe(all.filter((r) => r.endsWith('→ activity')).length);
    expect(entries.every((e) => e.n === 1)).toBe(true);
    // Nothing left to hand over again; the jobs made again are the queue's only ones.
    await sleep(1500);
    expect((await activity.getJobCounts()).failed).toBe(0);
  });
});
