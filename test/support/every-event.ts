import { randomBytes } from 'node:crypto';
import type { Agent, Test } from 'supertest';
import { DataSource } from 'typeorm';
import type { PublicEventType } from '../../src/events';
import { postWebhook } from '../e2e/billing/billing-fixtures';
import {
  createHolding,
  createPlan,
  noteBody,
  optionBody,
  safeBody,
  warrantBody,
} from '../e2e/cap-table/holdings-fixtures';
import { pdf } from '../e2e/documents/upload-fixtures';
import type { FakeBilling } from '../fakes/billing';
import { TestApp } from './app';
import { createHolder, createSecurity, issue } from './cap-table';
import { ledgerRoutes, writeByExample } from './ledger-routes';
import type { OrgFixture } from './orgs';

/** One event the routes were made to record. */
export interface FiredEvent {
  type: PublicEventType;
  /** The route that records it: `METHOD /path` with the path's parameters named. */
  route: string;
  /**
   * Fields the event's `data.object` carries, as the route answered them: the resource's id and
   * what the route changed. A payment's object has no id of its own: it names the provider's
   * webhook and our subscription.
   */
  object: Record<string, unknown>;
}

export interface EveryEventDeps {
  /** The fake provider the app is configured with, its catalogue seeded (`billingApp()`). */
  billing: FakeBilling;
}

const ORG = '/v1/organization/:organization';

/** The body of a request answering `status`; otherwise an error with what it answered. */
async function answer(req: Test, status: number) {
  const res = await req;
  if (res.status !== status) {
    const { method, url } = req as unknown as { method: string; url: string };
    throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as Record<string, any>;
}

/** The named fields of an answer (each must be there). */
function pick(body: Record<string, unknown>, ...keys: string[]) {
  for (const key of keys) {
    if (!(key in body)) throw new Error(`no ${key} in ${JSON.stringify(body)}`);
  }
  return Object.fromEntries(keys.map((k) => [k, body[k]]));
}

/**
 * Records every public event type but `organization.created` in `org`, each by a request to the
 * route that records it, one step per type, and answers them in the order fired. `org` is a new
 * organization (no live subscription, the names the steps give free) and `owner` an agent logged
 * in as its Owner. The app must have billing configured against
 * `deps.billing` (the `starter` product seeded) and a storage for the data room. Resources some
 * steps need (holders, a plan, a note ...) are made through their routes too, which records
 * other events besides (member.added, security.created, holding.created ...). How the events are
 * checked (event list, deliveries) is the caller's.
 */
export async function triggerEveryEvent(
  t: TestApp,
  owner: Agent,
  org: OrgFixture,
  deps: EveryEventDeps,
): Promise<FiredEvent[]> {
  const fired: FiredEvent[] = [];
  async function step<T>(
    type: PublicEventType,
    route: string,
    made: Promise<T>,
    object: (body: T) => Record<string, unknown>,
  ): Promise<T> {
    const body = await made;
    fired.push({ type, route, object: object(body) });
    return body;
  }
  const o = `/v1/organization/${org.id}`;
  /** A DELETE answering `{}`: the event is about the resource `id`. */
  const removed = (type: PublicEventType, route: string, url: string, id: string) =>
    step(type, route, answer(owner.delete(url), 200), () => ({ id }));

  await step(
    'organization.updated',
    `PATCH ${ORG}`,
    answer(owner.patch(o).send({ name: 'Every Event Co.' }), 200),
    (b) => pick(b, 'id', 'name'),
  );

  // Roles
  const role = await step(
    'role.created',
    `POST ${ORG}/role`,
    answer(
      owner.post(`${o}/role`).send({ name: 'Auditor', permissions: ['canViewOrganization'] }),
      201,
    ),
    (b) => pick(b, 'id', 'name'),
  );
  await step(
    'role.updated',
    `PUT ${ORG}/role/:role`,
    answer(
      owner
        .put(`${o}/role/${role.id}`)
        .send({ name: 'Auditor', permissions: ['canViewOrganization', 'canViewMember'] }),
      200,
    ),
    (b) => pick(b, 'id', 'permissions'),
  );
  await removed('role.deleted', `DELETE ${ORG}/role/:role`, `${o}/role/${role.id}`, role.id);

  // Members
  const alice = await step(
    'member.added',
    `POST ${ORG}/member`,
    createHolder(owner, org.id, 'Alice'),
    (b) => pick(b, 'id', 'name'),
  );
  const invitee = await step(
    'member.invited',
    `POST ${ORG}/member/invite`,
    answer(
      owner.post(`${o}/member/invite`).send({
        email: `invitee-${randomBytes(5).toString('hex')}@example.test`,
        role: 'Viewer',
      }),
      201,
    ),
    (b) => pick(b, 'id', 'status'),
  );
  await step(
    'member.updated',
    `PATCH ${ORG}/member/:member`,
    answer(owner.patch(`${o}/member/${alice.id}`).send({ title: 'Founder' }), 200),
    (b) => pick(b, 'id', 'title'),
  );
  await step(
    'member.removed',
    `DELETE ${ORG}/member/:member`,
    answer(owner.delete(`${o}/member/${invitee.id}`), 200),
    (b) => pick(b, 'id', 'status'),
  );

  // Share classes
  const common = await step(
    'security.created',
    `POST ${ORG}/security`,
    createSecurity(owner, org.id, { authorizedShares: '1000000' }),
    (b) => pick(b, 'id', 'name'),
  );
  await step(
    'security.updated',
    `PUT ${ORG}/security/:security`,
    answer(
      owner.put(`${o}/security/${common.id}`).send({
        name: 'Common Stock',
        classType: 'common',
        idPrefix: common.idPrefix,
        authorizedShares: '2000000',
      }),
      200,
    ),
    (b) => pick(b, 'id', 'authorizedShares'),
  );
  const unused = await createSecurity(owner, org.id, { name: 'Unused', idPrefix: 'UN-' });
  await removed(
    'security.deleted',
    `DELETE ${ORG}/security/:security`,
    `${o}/security/${unused.id}`,
    unused.id,
  );

  // Shareholdings
  const bob = await createHolder(owner, org.id, 'Bob');
  const shares = await step(
    'shareholding.created',
    `POST ${ORG}/shareholding`,
    issue(owner, org.id, { member: alice.id, security: common.id, quantity: '100000' }),
    (b) => pick(b, 'id', 'quantity'),
  );
  await step(
    'shareholding.updated',
    'PATCH /v1/shareholding/:holding',
    answer(owner.patch(`/v1/shareholding/${shares.id}`).send({ consideration: 'Cash' }), 200),
    (b) => pick(b, 'id', 'consideration'),
  );
  const transfer = await step(
    'shareholding.transferred',
    `POST ${ORG}/shareholding/transfer`,
    answer(
      owner.post(`${o}/shareholding/transfer`).send({
        shareholding: shares.id,
        toMember: bob.id,
        quantity: '1000',
        date: '2024-02-01',
      }),
      201,
    ),
    (b) => pick(b, 'id'),
  );
  await step(
    'shareholding.voided',
    'DELETE /v1/shareholding/:holding',
    answer(owner.delete(`/v1/shareholding/${transfer.destination.id}`), 200),
    (b) => pick(b, 'id', 'status'),
  );

  // Holdings: a warrant amended and cancelled, a note repaid, a SAFE converted
  const table = { org, alice, security: common };
  const warrant = await step(
    'holding.created',
    'POST /v1/holding',
    createHolding(owner, warrantBody(table)),
    (b) => pick(b, 'id', 'type'),
  );
  await step(
    'holding.updated',
    'PATCH /v1/holding/:holding',
    answer(owner.patch(`/v1/holding/${warrant.id}`).send({ exercisePrice: '2.5' }), 200),
    (b) => pick(b, 'id', 'exercisePrice'),
  );
  await step(
    'holding.deleted',
    'DELETE /v1/holding/:holding',
    answer(owner.delete(`/v1/holding/${warrant.id}`), 200),
    (b) => pick(b, 'id', 'status'),
  );
  const note = await createHolding(owner, noteBody(table));
  await step(
    'holding.repaid',
    'POST /v1/holding/:holding/repay',
    answer(
      owner.post(`/v1/holding/${note.id}/repay`).send({ amount: '1000', date: '2024-06-01' }),
      200,
    ),
    (b) => pick(b, 'id', 'principalOutstanding'),
  );
  const safe = await createHolding(owner, safeBody(table));
  await step(
    'holding.converted',
    'POST /v1/holding/:holding/convert',
    answer(
      owner
        .post(`/v1/holding/${safe.id}/convert`)
        .send({ date: '2024-03-01', security: common.id, pricePerShare: '1' }),
      201,
    ),
    (b) => pick(b.holding, 'id', 'status'),
  );

  // Options: a grant without a vesting schedule, vested in full
  const plan = await createPlan(owner, org.id, common.id);
  const pool = plan.pools[0];
  const option = await createHolding(owner, optionBody({ ...table, plan, pool }));
  const optionPath = `/v1/plan/${plan.id}/pool/${pool.id}/option/${option.id}`;
  const OPTION = '/v1/plan/:plan/pool/:pool/option/:option';
  await step(
    'option.exercise_requested',
    `POST ${OPTION}/exercise/request`,
    answer(owner.post(`${optionPath}/exercise/request`).send({ quantity: '100' }), 201),
    (b) => pick(b, 'id', 'quantity'),
  );
  await step(
    'option.exercised',
    `POST ${OPTION}/exercise`,
    answer(owner.post(`${optionPath}/exercise`).send({ quantity: '200' }), 201),
    (b) => pick(b, 'id', 'option', 'shareholding'),
  );

  // Valuations
  const valuation = { organization: org.id, type: '409A', effectiveDate: '2024-01-01' };
  const recorded = await step(
    'valuation.created',
    'PUT /v1/valuation',
    answer(owner.put('/v1/valuation').send({ ...valuation, pricePerShare: '1.25' }), 200),
    (b) => pick(b, 'id', 'pricePerShare'),
  );
  await step(
    'valuation.updated',
    'PUT /v1/valuation',
    answer(
      owner.put('/v1/valuation').send({ ...valuation, id: recorded.id, pricePerShare: '1.5' }),
      200,
    ),
    (b) => pick(b, 'id', 'pricePerShare'),
  );

  // Data room
  const folder = await step(
    'folder.created',
    `POST ${ORG}/folder`,
    answer(owner.post(`${o}/folder`).send({ name: 'Board' }), 201),
    (b) => pick(b, 'id', 'name'),
  );
  const uploaded = await step(
    'document.uploaded',
    `POST ${ORG}/document`,
    answer(owner.post(`${o}/document`).attach('file', pdf(), 'minutes.pdf'), 201),
    (b) => pick(b[0], 'id', 'name'),
  );
  const document = uploaded[0] as { id: string };
  await step(
    'document.moved',
    `POST ${ORG}/document/:document/move`,
    answer(
      owner
        .post(`${o}/document/${document.id}/move`)
        .send({ name: 'minutes.pdf', parentFolder: folder.id }),
      200,
    ),
    (b) => pick(b, 'id', 'parentFolder'),
  );
  await removed(
    'document.deleted',
    `DELETE ${ORG}/document/:document`,
    `${o}/document/${document.id}`,
    document.id,
  );

  // Billing: our signup and cancellation, the provider's payment webhooks in between
  const subscription = await step(
    'subscription.created',
    `POST ${ORG}/subscription`,
    answer(owner.post(`${o}/subscription`).send({ productHandle: 'starter' }), 201),
    (b) => pick(b, 'id', 'productHandle'),
  );
  const billing = deps.billing;
  const providerId = [...billing.subscriptions.values()].find(
    (s) => s.customer.reference === org.entity,
  )!.id;
  for (const [type, event] of [
    ['payment.succeeded', 'payment_success'],
    ['payment.failed', 'payment_failure'],
  ] as const) {
    const webhook = billing.subscriptionWebhook(event, providerId, {
      extra: { transaction: { amount_in_cents: 4900, memo: 'Starter' } },
    });
    await step(
      type,
      'POST /v1/billing/webhook',
      answer(postWebhook(t, webhook, billing.siteSharedKey), 200),
      () => ({ webhook: String(webhook.id), subscription: subscription.id }),
    );
  }
  await step(
    'subscription.cancelled',
    `DELETE ${ORG}/subscription/:subscription`,
    answer(owner.delete(`${o}/subscription/${subscription.id}`).query({ immediate: true }), 200),
    (b) => pick(b, 'id', 'state'),
  );

  // A public event of a newer ledger type that no step above records: its route's example.
  const seen = new Set(fired.map((f) => f.type as string));
  for (const declared of ledgerRoutes()) {
    const type = declared.event?.type;
    if (!type || !declared.event!.public || seen.has(type)) continue;
    seen.add(type);
    await step(
      type as PublicEventType,
      `${declared.route.method} /v1/${declared.route.path}`,
      writeByExample(t.get(DataSource), owner, org.id, declared),
      // The event is about the resource its path named.
      (written) => ({ id: written.record ?? written.body.id }),
    );
  }

  return fired;
}
