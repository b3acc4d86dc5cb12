import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Scheduler } from '../../../src/scheduler';
import { createTestApp, TestApp } from '../../support/app';
import { TestClock } from '../../support/clock';

const CLEANUP = 'events:outbox-cleanup';
const DAY = 24 * 3600_000;

describe('outbox clean-up: relayed events older than 30 days', () => {
  let t: TestApp;
  let ds: DataSource;
  let scheduler: Scheduler;
  const clock = new TestClock();
  beforeAll(async () => {
    t = await createTestApp({ overrides: clock.override });
    scheduler = t.get<Scheduler>(Scheduler);
    ds = t.get<DataSource>(DataSource);
    // A route to a queue no instance consumes, so the running relay leaves its events pending.
    await ds.query(
      `INSERT INTO event_route (event_type, queue) VALUES ('test.unconsumed', 'nowhere')`,
    );
  });
  afterAll(() => t.close());

  /**
   * `count` events of `org`, written `age` ago, relayed or not. A row not relayed is of a type
   * routed to a queue nobody consumes, so the running relay leaves it as it is.
   */
  const insert = (org: string, count: number, age: string, relayed: boolean) =>
    ds.query(
      `INSERT INTO outbox_event
         (id, type, organization_id, data, api_version, created, relayed_at)
       SELECT 'evt_' || md5(random()::text),
              CASE WHEN $4 THEN 'member.updated' ELSE 'test.unconsumed' END, $1,
              '{"object": {}, "previous_attributes": {}}', '2026-11-01',
              now() - $3::interval, CASE WHEN $4 THEN now() - $3::interval END
         FROM generate_series(1, $2)`,
      [org, count, age, relayed],
    );

  const counts = async (org: string) =>
    (
      (await ds.query(
        `SELECT (created < now() - interval '30 days') AS old, relayed_at IS NOT NULL AS relayed,
                count(*)::int AS n
           FROM outbox_event WHERE organization_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
        [org],
      )) as { old: boolean; relayed: boolean; n: number }[]
    ).map((r) => `${r.old ? 'old' : 'recent'} ${r.relayed ? 'relayed' : 'pending'}: ${r.n}`);

  it('deletes only relayed rows past 30 days, in batches, and keeps the rest', async () => {
    const org = randomUUID();
    await insert(org, 2500, '31 days', true);
    await insert(org, 3, '29 days', true);
    await insert(org, 2, '40 days', false);
    await insert(org, 4, '1 minute', true);
    expect(await counts(org)).toEqual(['recent relayed: 7', 'old pending: 2', 'old relayed: 2500']);
    expect(await scheduler.run(CLEANUP)).toBe(2500);
    expect(await counts(org)).toEqual(['recent relayed: 7', 'old pending: 2']);
  });

  it('deletes the processed markers written more than 30 days ago, and keeps the rest', async () => {
    const consumer = `test-${randomUUID().slice(0, 8)}`;
    await ds.query(
      `INSERT INTO processed_event (consumer, event_id, processed_at)
       SELECT $1, 'evt_' || md5(random()::text), now() - (CASE WHEN n <= 3 THEN '31 days' ELSE '29 days' END)::interval
         FROM generate_series(1, 5) AS n`,
      [consumer],
    );
    await scheduler.run('events:processed-cleanup');
    const [{ n }] = await ds.query(
      'SELECT count(*)::int AS n FROM processed_event WHERE consumer = $1',
      [consumer],
    );
    expect(n).toBe(2);
  });

  it('runs once a day across instances: the first to take the day’s turn cleans', async () => {
    clock.freeze(new Date(Date.now() + 2 * DAY).toISOString().slice(0, 10) + 'T09:00:00Z');
    try {
      const org = randomUUID();
      await insert(org, 1, '31 days', true);
      expect(await scheduler.tick(CLEANUP)).toBe(true);
      expect(await counts(org)).toEqual([]);

      // Another instance (or this one an hour later) finds the day's turn taken.
      await insert(org, 1, '31 days', true);
      clock.advance(3600_000);
      expect(await scheduler.tick(CLEANUP)).toBe(false);
      expect(await counts(org)).toEqual(['old relayed: 1']);

      // The next day's turn is free again.
      clock.advance(DAY);
      expect(await scheduler.tick(CLEANUP)).toBe(true);
      expect(await counts(org)).toEqual([]);
    } finally {
      clock.reset();
    }
  });
});
