import { randomBytes, randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { User } from '../../../src/auth/users/user.entity';
import type { UserView } from '../../../src/auth/users/user.view';
import { QueueName } from '../../../src/events';
import { FakeBilling } from '../../fakes/billing';
import { createTestApp, TestApp } from '../../support/app';
import { logIn, randomIp } from '../../support/users';

export const UNKNOWN = '6f1c1d1e-0000-4000-8000-000000000000';

/** The app on FakeBilling (with its catalogue) and a fake SMTP server; default REFERRAL_REWARDS. */
export async function referralApp(): Promise<{ t: TestApp; fake: FakeBilling; ds: DataSource }> {
  const fake = await FakeBilling.start();
  fake.seedCatalogue();
  const t = await createTestApp({ env: fake.env(), mail: true });
  return { t, fake, ds: t.get<DataSource>(DataSource) };
}

/** Registers through `POST /v1/user` (with `referralCode` when given), verified, logged in. */
export async function registerWith(
  t: TestApp,
  options: { email?: string; referralCode?: string } = {},
): Promise<{ user: UserView; email: string; agent: Agent }> {
  const tag = randomBytes(5).toString('hex');
  const email = options.email ?? `user-${tag}@example.test`;
  const password = `Ledgerline-test-${tag}`;
  const res = await t.http
    .post('/v1/user')
    .set('X-Forwarded-For', randomIp())
    .send({ email, password, name: `User ${tag}`, referralCode: options.referralCode })
    .expect(201);
  await t.get<DataSource>(DataSource).getRepository(User).update(
    { id: res.body.user.id },
    {
      emailVerified: true,
    },
  );
  return { user: res.body.user, email, agent: await logIn(t, email, password) };
}

/** Credit granted straight into the ledger (as a revealed card would), for transfer tests. */
export async function fund(ds: DataSource, entityId: string, amount: string): Promise<void> {
  await ds.query(
    `INSERT INTO credit_entry (id, entity_id, kind, amount, currency, movement_id)
     VALUES ($1, $2, 'grant', $3, 'USD', $4)`,
    [randomUUID(), entityId, amount, randomUUID()],
  );
}

export async function balanceOf(ds: DataSource, entityId: string): Promise<string> {
  const [row] = await ds.query(
    'SELECT COALESCE(sum(amount), 0)::numeric(20,2)::text AS b FROM credit_entry WHERE entity_id = $1',
    [entityId],
  );
  return row.b;
}

/** An organization of the agent's user with a live subscription (at the fake provider). */
export async function subscribedOrg(agent: Agent, name = 'Invitee Inc.') {
  const org = (await agent.post('/v1/organization').send({ name }).expect(201)).body as {
    id: string;
    entity: string;
  };
  await agent
    .post(`/v1/organization/${org.id}/subscription`)
    .send({ productHandle: 'starter' })
    .expect(201);
  return org;
}

/**
 * Waits until the referral consumer handled the organization's `subscription.created`, its
 * redemption included (the queue has nothing left to do).
 */
export async function subscriptionSeen(t: TestApp, organizationId: string): Promise<void> {
  const ds = t.get<DataSource>(DataSource);
  const queue = t.get<Queue>(getQueueToken(QueueName.Referral));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [row] = await ds.query(
      `SELECT count(*)::int AS n FROM processed_event p JOIN outbox_event e ON e.id = p.event_id
        WHERE p.consumer = 'referral' AND e.type = 'subscription.created' AND e.organization_id = $1`,
      [organizationId],
    );
    const busy = (await queue.getActiveCount()) + (await queue.getWaitingCount());
    if (row.n > 0 && busy === 0) return;
    if (Date.now() > deadline) throw new Error('subscription.created not consumed');
    await new Promise((r) => setTimeout(r, 50));
  }
}
