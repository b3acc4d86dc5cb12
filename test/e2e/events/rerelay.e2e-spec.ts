import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { DataSource } from 'typeorm';
import { ActivityAction } from '../../../src/activity/activity-action.entity';
import { QueueName } from '../../../src/events';
import { OutboxEvent } from '../../../src/events/outbox-event.entity';
import { OutboxRelay } from '../../../src/events/outbox-relay.service';
import { OutboxService } from '../../../src/events/outbox.service';
import { Scheduler } from '../../../src/scheduler';
import { createTestApp, TestApp } from '../../support/app';
import { eventually, sleep } from '../../support/eventually';
import { createHolder } from '../../support/cap-table';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

const RERELAY = 'events:rerelay';

/**
 * Every consumer leaves a processed marker per event it is handed, named after its queue; the
 * re-relay hands an event again to a queue whose marker is missing a while after its relay (its
 * job lost with Redis data), with the event id as the job id.
 */
describe('processed markers and the re-relay', () => {
  let t: TestApp;
  let ds: DataSource;
  beforeAll(async () => {
    t = await createTestApp({ env: { OUTBOX_RERELAY_AFTER_MS: '60000' } });
    ds = t.get<DataSource>(DataSource);
    // The template database was migrated moments ago: its routes date from a day before the events.
    await ds.query(`UPDATE event_route SET created = now() - interval '1 day'`);
  });
  afterAll(() => t.close());

  /** An organization's events, and its owner's registration. */
  const OF_TEST = `(e.organization_id = $1 OR (e.type = 'user.registered' AND e.actor_user_id = $2))`;

  /** The routes of those events whose queue left no marker. */
  const unmarked = async (org: string, user: string) =>
    (
      (await ds.query(
        `SELECT e.type, r.queue FROM outbox_event e JOIN event_route r ON r.event_type = e.type
          WHERE ${OF_TEST} AND NOT EXISTS (SELECT 1 FROM processed_event p
                                            WHERE p.consumer = r.queue AND p.event_id = e.id)
          ORDER BY 1, 2`,
        [org, user],
      )) as { type: string; queue: string }[]
    ).map((r) => `${r.type} → ${r.queue}`);

  /** The consumers that left a marker for one of those events. */
  const marked = async (org: string, user: string) =>
    (
      (await ds.query(
        `SELECT DISTINCT p.consumer FROM processed_event p JOIN outbox_event e ON e.id = p.event_id
          WHERE ${OF_TEST} ORDER BY 1`,
        [org, user],
      )) as { consumer: string }[]
    ).map((r) => r.consumer);

  it('leaves a marker per event on every queue it is routed to, work or none', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    await createHolder(owner.agent, org.id);
    // A count event, as a change of the cap table records (billing is off: no call is made).
    await ds.transaction((manager) =>
      t.get<OutboxService>(OutboxService).record(manager, {
        type: 'billing.shareholder_count_changed',
        organizationId: org.id,
        object: { organization: org.id },
      }),
    );
    // Chat (not configured: a no-op), webhooks (no endpoint), billing counts, activity, referral.
    const user = owner.user.id;
    await eventually(async () => (await unmarked(org.id, user)).length === 0, 30_000);
    expect(await marked(org.id, user)).toEqual([
      'activity',
      'billing-counts',
      'chat',
      'referral',
      'webhooks',
    ]);
  });

  /** Commits an `organization.updated` of a made-up organization (activity and webhooks). */
  const commit = async (org: string): Promise<string> => {
    await ds.transaction((manager) =>
      t.get<OutboxService>(OutboxService).record(manager, {
        type: 'organization.updated',
        organizationId: org,
        object: { id: org, name: 'Acme' },
        previous: { name: 'Old' },
      }),
    );
    return (await ds.getRepository(OutboxEvent).findOneByOrFail({ organizationId: org })).id;
  };
  const activityOf = (org: string) =>
    ds.getRepository(ActivityAction).countBy({ organizationId: org });
  const relayedAgo = (id: string, ago: string) =>
    ds.query(`UPDATE outbox_event SET relayed_at = now() - $2::interval WHERE id = $1`, [id, ago]);
  const jobState = async (queue: QueueName, id: string) =>
    (await t.get<Queue>(getQueueToken(queue)).getJob(id))?.getState();

  it('relays again, once, an event whose job was lost before its queue consumed it', async () => {
    const org = randomUUID();
    const activity = t.get<Queue>(getQueueToken(QueueName.Activity));
    // The activity worker of this process stops taking jobs: the event's job waits in Redis.
    await activity.pause(true);
    try {
      const id = await commit(org);
      await t.get<OutboxRelay>(OutboxRelay).relayPending();
      await eventually(async () => (await jobState(QueueName.Activity, id)) === 'waiting');
      await eventually(async () => (await jobState(QueueName.Webhooks, id)) === 'completed');

      // Not yet a while ago: nothing is sent again.
      expect(await t.get<Scheduler>(Scheduler).run(RERELAY)).toBe(0);
      // A while ago, its job still there: the add is a no-op (the same job id).
      await relayedAgo(id, '2 minutes');
      expect(await t.get<Scheduler>(Scheduler).run(RERELAY)).toBe(1);
      expect(await activity.getJobCounts()).toMatchObject({ waiting: 1 });
      // Relayed now: left alone until the delay has passed again.
      expect(await t.get<Scheduler>(Scheduler).run(RERELAY)).toBe(0);

      // The job lost (as with Redis data): the re-relay makes it again, for activity only.
      await (await activity.getJob(id))!.remove();
      await relayedAgo(id, '2 minutes');
      await activity.resume(true);
      expect(await t.get<Scheduler>(Scheduler).run(RERELAY)).toBe(1);
      await eventually(async () => (await activityOf(org)) === 1);
      expect(await jobState(QueueName.Webhooks, id)).toBe('completed');
      await relayedAgo(id, '2 minutes');
      expect(await t.get<Scheduler>(Scheduler).run(RERELAY)).toBe(0);
      await sleep(300);
      expect(await activityOf(org)).toBe(1);
    } finally {
      await activity.resume(true);
    }
  });

  it('sends a queue only the events relayed after its route was migrated in', async () => {
    const org = randomUUID();
    const activity = t.get<Queue>(getQueueToken(QueueName.Activity));
    await activity.pause(true);
    try {
      const id = await commit(org);
      await t.get<OutboxRelay>(OutboxRelay).relayPending();
      await eventually(async () => (await jobState(QueueName.Activity, id)) === 'waiting');
      await (await activity.getJob(id))!.remove();
      // Relayed before the routes existed (an older version without this queue's route).
      await ds.query(`UPDATE event_route SET created = now() WHERE queue = 'activity'`);
      await relayedAgo(id, '10 minutes');
      try {
        expect(await t.get<Scheduler>(Scheduler).run(RERELAY)).toBe(0);
      } finally {
        await ds.query(
          `UPDATE event_route SET created = now() - interval '1 day' WHERE queue = 'activity'`,
        );
      }
      // The route older than the relay: sent again.
      expect(await t.get<Scheduler>(Scheduler).run(RERELAY)).toBe(1);
      await activity.resume(true);
      await eventually(async () => (await activityOf(org)) === 1);
    } finally {
      await activity.resume(true);
    }
  });
});
