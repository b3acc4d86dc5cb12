import { Injectable, Logger, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HOUR, Retention, Scheduled, Scheduler } from '../../../src/scheduler';
import { createTestApp, TestApp } from '../../support/app';
import { TestClock } from '../../support/clock';

const DAY = 24 * HOUR;
const PROBE = 'test:probe';
const PROBE_RETENTION = 'test:probe-retention';

/** A job that counts its runs in its instance, and fails when told to. */
@Injectable()
class Probe {
  runs = 0;
  fail = false;

  // Hourly: no instance's own timer asks for it while the test runs (twice an hour).
  @Scheduled({ name: PROBE, every: HOUR })
  async run(): Promise<number> {
    this.runs++;
    if (this.fail) throw new Error('the probe failed');
    return this.runs;
  }
}

/** Rows of `scheduler_probe` (made by the test) a day old go, unless kept: 3 a statement, 2 a run. */
@Retention({
  owner: 'scheduler',
  name: PROBE_RETENTION,
  table: 'scheduler_probe',
  age: 'created',
  olderThan: DAY,
  where: 'NOT keep',
  batch: 3,
  batchesPerRun: 2,
})
@Injectable()
class ProbeRetention {}

@Module({ providers: [Probe, ProbeRetention] })
class ProbeModule {}

describe('the scheduler: once per period across instances, retention in bounded batches', () => {
  // Two instances of the app on one database and one Redis, each with its own clock.
  const clocks = [new TestClock().freeze('2030-01-07T10:00:00Z'), new TestClock()];
  clocks[1].freeze(clocks[0].now());
  let apps: TestApp[];
  let schedulers: Scheduler[];
  let probes: Probe[];
  let ds: DataSource;

  beforeAll(async () => {
    const first = await createTestApp({ imports: [ProbeModule], overrides: clocks[0].override });
    const second = await createTestApp({
      imports: [ProbeModule],
      overrides: clocks[1].override,
      database: first.database,
      redisPrefix: first.redisPrefix,
    });
    apps = [first, second];
    schedulers = apps.map((a) => a.get<Scheduler>(Scheduler));
    probes = apps.map((a) => a.get<Probe>(Probe));
    ds = first.get<DataSource>(DataSource);
  });
  afterAll(async () => {
    await apps[1].close({ keepData: true });
    await apps[0].close();
  });

  const advance = (ms: number) => clocks.forEach((c) => c.advance(ms));
  const runs = () => probes[0].runs + probes[1].runs;

  it('finds every job of every module at start-up, with its period', () => {
    const jobs = new Map(schedulers[0].list().map((j) => [j.name, j.every]));
    expect(jobs.get(PROBE)).toBe(HOUR);
    expect(jobs.get(PROBE_RETENTION)).toBe(DAY);
    expect(jobs.get('events:outbox-cleanup')).toBe(DAY);
    expect(jobs.get('webhooks:sweep')).toBe(30_000);
    expect(jobs.get('billing:count-sweep')).toBe(60_000);
    expect(jobs.get('idempotency:key-sweep')).toBe(10 * 60_000);
    // The re-relay of lost event jobs: every minute (its delay is longer in production).
    expect(jobs.get('events:rerelay')).toBe(60_000);
  });

  it('runs a job once per period across instances, whichever asks first', async () => {
    const first = await Promise.all(schedulers.map((s) => s.tick(PROBE)));
    expect(first.filter(Boolean)).toHaveLength(1);
    expect(runs()).toBe(1);

    // Later in the same hour: both find the turn taken.
    advance(40 * 60_000);
    expect(await Promise.all(schedulers.map((s) => s.tick(PROBE)))).toEqual([false, false]);
    expect(runs()).toBe(1);

    // The next hour's turn goes to one of them again.
    advance(20 * 60_000);
    const next = await Promise.all(schedulers.map((s) => s.tick(PROBE)));
    expect(next.filter(Boolean)).toHaveLength(1);
    expect(runs()).toBe(2);
  });

  it('logs a failed run and lets the next period try again; it never reaches the caller', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      probes.forEach((p) => (p.fail = true));
      advance(HOUR);
      const ticked = await Promise.all(schedulers.map((s) => s.tick(PROBE)));
      expect(ticked.filter(Boolean)).toHaveLength(1);
      expect(warn).toHaveBeenCalledWith(`${PROBE} failed: the probe failed`);
      probes.forEach((p) => (p.fail = false));
      advance(HOUR);
      expect(
        (await Promise.all(schedulers.map((s) => s.tick(PROBE)))).filter(Boolean),
      ).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });

  it('logs a retention that fails (its table is missing) without throwing', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      expect(await schedulers[0].tick(PROBE_RETENTION)).toBe(true);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^test:probe-retention failed: /));
    } finally {
      warn.mockRestore();
    }
  });

  it('deletes only rows older than the retention, in bounded batches, and what ages later', async () => {
    await ds.query(
      `CREATE TABLE scheduler_probe (id serial PRIMARY KEY, created timestamptz NOT NULL,
         keep boolean NOT NULL DEFAULT false)`,
    );
    const insert = (count: number, age: number, keep = false) =>
      ds.query(
        `INSERT INTO scheduler_probe (created, keep)
         SELECT $2::timestamptz, $3 FROM generate_series(1, $1)`,
        [count, new Date(clocks[0].nowMs() - age), keep],
      );
    await insert(10, 2 * DAY);
    await insert(2, 2 * DAY, true);
    await insert(3, HOUR);
    await insert(1, DAY - 1000);
    const left = async () =>
      (
        (await ds.query(
          `SELECT count(*) FILTER (WHERE created < $1 AND NOT keep)::int AS old,
                  count(*)::int AS all FROM scheduler_probe`,
          [new Date(clocks[0].nowMs() - DAY)],
        )) as { old: number; all: number }[]
      )[0];

    // At most 2 statements of 3 rows a run.
    expect(await schedulers[0].run(PROBE_RETENTION)).toBe(6);
    expect(await left()).toEqual({ old: 4, all: 10 });
    expect(await schedulers[1].run(PROBE_RETENTION)).toBe(4);
    expect(await schedulers[0].run(PROBE_RETENTION)).toBe(0);
    expect(await left()).toEqual({ old: 0, all: 6 });

    // Two seconds later, the row a second short of a day is older than a day.
    advance(2000);
    expect(await schedulers[1].run(PROBE_RETENTION)).toBe(1);
    // A day later, the recent rows are too; the kept ones stay.
    advance(DAY);
    expect(await schedulers[0].run(PROBE_RETENTION)).toBe(3);
    expect(await left()).toEqual({ old: 0, all: 2 });
  });
});
