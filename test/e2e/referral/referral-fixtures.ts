import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { QueueName } from '../../../src/events';
import { FakeBilling } from '../../fakes/billing';
import { createTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { postWebhook } from '../billing/billing-fixtures';

export const UNKNOWN = '6f1c1d1e-0000-4000-8000-000000000000';

/** The app on FakeBilling (with its catalogue) and a fake SMTP server; default REFERRAL_REWARDS. */
export async function referralApp(): Promise<{ t: TestApp; fake: FakeBilling; ds: DataSource }> {
  const fake = await FakeBilling.start();
  fake.seedCatalogue();
  const t = await createTestApp({ env: fake.env(), mail: true });
  return { t, fake, ds: t.get<DataSource>(DataSource) };
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

/**
 * The provider's webhook of a payment of the organization's subscription (`payment_success`,
 * `renewal_success`, `payment_failure` ...), as it posts it: what earns a referral card.
 */
export async function paid(
  t: TestApp,
  fake: FakeBilling,
  org: { entity: string },
  options: { event?: string; cents?: number } = {},
): Promise<void> {
  const subscription = [...fake.subscriptions.values()].find(
    (s) => s.customer.reference === org.entity && s.state !== 'canceled',
  );
  if (!subscription) throw new Error(`no live subscription of entity ${org.entity}`);
  const webhook = fake.subscriptionWebhook(options.event ?? 'payment_success', subscription.id, {
    extra: {
      transaction: {
        id: Math.floor(Math.random() * 1e9),
        amount_in_cents: options.cents ?? 4900,
        currency: 'USD',
        memo: 'Starter',
      },
    },
  });
  const res = await postWebhook(t, webhook, fake.siteSharedKey);
  if (res.status !== 200) throw new Error(`webhook: ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * Waits until every redemption of the entity was answered by the provider (applied or
 * reversed): its balance is taken when it is reserved, before the provider is called.
 */
export async function redemptionsSettled(
  t: TestApp,
  entityId: string,
  timeoutMs = 10_000,
): Promise<{ id: string; state: string }[]> {
  const ds = t.get<DataSource>(DataSource);
  const settled = await eventually(
    async () => {
      const rows: { id: string; state: string }[] = await ds.query(
        'SELECT id, state FROM credit_redemption WHERE entity_id = $1 ORDER BY created',
        [entityId],
      );
      return rows.length > 0 && rows.every((r) => r.state !== 'pending') ? rows : null;
    },
    timeoutMs,
    100,
  );
  return settled!;
}
