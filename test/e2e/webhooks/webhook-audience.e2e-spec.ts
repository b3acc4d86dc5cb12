import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { PUBLIC_EVENT_TYPES } from '../../../src/events';
import { EVENT_AUDIENCE } from '../../../src/organizations';
import { WebhookReceiver } from '../../fakes/webhook-receiver';
import { createTestApp, TestApp } from '../../support/app';
import { ERROR_BODIES } from '../../support/errors';
import { memberAgent } from '../../support/orgs';
import { webhookPath } from '../../support/webhooks';
import { ownerWithOrg } from '../../support/world';

/**
 * Issue 35 section 2: a webhook reaches no one its subscriber could not read. An endpoint receives
 * every event of its types, so registering one, or changing its `events` or where it sends them,
 * needs the full read permission of each type it covers (`*`: the whole catalogue), held by the
 * role: 403 naming the first type missing. A URL, often carrying credentials, is shown whole only
 * to those who may edit the organization.
 */

const forbidden = (message: string) => ({ error: 'Forbidden', message });

/** The first catalogue type a keeper of the organization (view and edit) cannot read in full. */
const firstUnreadable = PUBLIC_EVENT_TYPES.find(
  (t) => !['canViewOrganization', 'canEditOrganization'].includes(EVENT_AUDIENCE[t]),
);

/** Global unicast addresses of the unallocated 3ffe::/16: registered inactive, never sent to. */
const PUBLIC_URL = 'https://[3ffe::10]/ledgerline';

describe('webhook subscriptions and URLs within their audience (issue 35 section 2)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const stored = async (org: string) =>
    (await t
      .get<DataSource>(DataSource)
      .query(
        `SELECT url, events FROM webhook_endpoint WHERE organization_id = $1 ORDER BY created`,
        [org],
      )) as { url: string; events: string[] }[];

  /** An organization with a member of a custom role holding `permissions`. */
  async function world(permissions: string[]) {
    const { owner, org } = await ownerWithOrg(t, 'Subscribers Inc.');
    const role = await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Hook keeper', permissions })
      .expect(201);
    const keeper = await memberAgent(t, owner.agent, org.id, role.body.name as string);
    return { owner: owner.agent, org, keeper: keeper.agent };
  }

  const register = (agent: Agent, org: string, body: Record<string, unknown>) =>
    agent.post(webhookPath(org)).send({ url: PUBLIC_URL, active: false, ...body });

  it('registers only the types the role reads in full: 403 naming the first type missing, nothing stored', async () => {
    const { org, keeper } = await world(['canViewOrganization', 'canEditOrganization']);
    const refusals: [string[] | undefined, string][] = [
      [['organization.updated', 'valuation.created'], 'valuation.created needs canViewValuation'],
      [['member.added'], 'member.added needs canViewMember'],
      [['document.uploaded', 'member.added'], 'document.uploaded needs canViewDocuments'],
      [['payment.failed'], 'payment.failed needs canEditOrganizationBilling'],
      [['holding.created'], 'holding.created needs canViewHolding'],
      [['option.exercised'], 'option.exercised needs canViewOption'],
      // A subscriber gets every shareholding, not only its own: the role must hold it, the
      // self scope of "...OrSelf" is not enough.
      [['shareholding.created'], 'shareholding.created needs canViewCapitalizationOrSelf'],
      // "*" covers the whole catalogue; the first of its types (catalogue order) is named.
      [['*'], `${firstUnreadable} needs canViewCapitalizationOrSelf`],
      [undefined, `${firstUnreadable} needs canViewCapitalizationOrSelf`],
    ];
    for (const [events, missing] of refusals) {
      const res = await register(keeper, org.id, events ? { events } : {});
      expect({ events, status: res.status, body: res.body }).toEqual({
        events,
        status: 403,
        body: forbidden(`events: subscribing to ${missing}`),
      });
    }
    expect(await stored(org.id)).toEqual([]);

    const allowed = ['organization.updated', 'role.created', 'security.deleted'];
    const res = await register(keeper, org.id, { events: allowed }).expect(201);
    expect(res.body.events).toEqual(allowed);
  });

  it('a role reading all but valuations and billing subscribes to its types, not to "*"', async () => {
    const { org, keeper } = await world([
      'canViewOrganization',
      'canEditOrganization',
      'canViewCapTable',
      'canViewCapitalizationOrSelf',
      'canViewHolding',
      'canViewOption',
      'canViewMember',
      'canViewDocuments',
    ]);
    const star = await register(keeper, org.id, { events: ['*'] }).expect(403);
    expect(star.body).toEqual(
      forbidden('events: subscribing to valuation.created needs canViewValuation'),
    );
    const readable = PUBLIC_EVENT_TYPES.filter(
      (type) => !/^(valuation|subscription|payment)\./.test(type),
    );
    await register(keeper, org.id, { events: readable }).expect(201);
  });

  it('Owner and Admin subscribe to "*"', async () => {
    const { owner, org } = await world(['canViewOrganization']);
    await register(owner, org.id, {}).expect(201);
    const admin = await memberAgent(t, owner, org.id, 'Admin');
    await register(admin.agent, org.id, { events: ['*'] }).expect(201);
  });

  it('changing events needs each new type; changing the URL needs every type the endpoint sends', async () => {
    const { owner, org, keeper } = await world(['canViewOrganization', 'canEditOrganization']);
    const everything = await register(owner, org.id, {}).expect(201);
    const one = `${webhookPath(org.id)}/${everything.body.id}`;

    const events = await keeper
      .patch(one)
      .send({ events: ['valuation.updated'] })
      .expect(403);
    expect(events.body).toEqual(
      forbidden('events: subscribing to valuation.updated needs canViewValuation'),
    );
    // Sending the Owner's "*" subscription elsewhere would hand the keeper every event.
    const moved = await keeper.patch(one).send({ url: 'https://[3ffe::66]/mine' }).expect(403);
    expect(moved.body).toEqual(
      forbidden(
        `url: changing where ${firstUnreadable} is delivered needs canViewCapitalizationOrSelf`,
      ),
    );
    const both = await keeper
      .patch(one)
      .send({ url: 'https://[3ffe::66]/mine', events: ['member.removed'] })
      .expect(403);
    expect(both.body).toEqual(
      forbidden('events: subscribing to member.removed needs canViewMember'),
    );
    expect(await stored(org.id)).toEqual([{ url: PUBLIC_URL, events: ['*'] }]);

    // Within the keeper's types: narrowing, then moving, is theirs to do.
    await keeper.patch(one).send({ description: 'Ops', active: false }).expect(200);
    await keeper
      .patch(one)
      .send({ events: ['organization.updated'] })
      .expect(200);
    const done = await keeper.patch(one).send({ url: 'https://[3ffe::66]/mine' }).expect(200);
    expect(done.body).toMatchObject({
      url: 'https://[3ffe::66]/mine',
      events: ['organization.updated'],
    });
  });

  it('resends only an event the caller may read: another is as unknown as a missing one (404)', async () => {
    const { owner, org, keeper } = await world(['canViewOrganization', 'canEditOrganization']);
    const endpoint = await keeper
      .post(webhookPath(org.id))
      .send({
        url: receiver.url('/resend-audience'),
        events: ['organization.updated'],
        active: false,
      })
      .expect(201);
    await owner
      .put('/v1/valuation')
      .send({
        organization: org.id,
        type: '409A',
        effectiveDate: '2024-01-01',
        pricePerShare: '9.87',
      })
      .expect(200);
    await owner.patch(`/v1/organization/${org.id}`).send({ name: 'Renamed' }).expect(200);
    const events = (await owner.get(`/v1/organization/${org.id}/event`).expect(200)).body.data as {
      id: string;
      type: string;
    }[];
    const valuation = events.find((e) => e.type === 'valuation.created')!;
    const renamed = events.find((e) => e.type === 'organization.updated')!;
    await keeper
      .patch(`${webhookPath(org.id)}/${endpoint.body.id}`)
      .send({ active: true })
      .expect(200);
    const base = `${webhookPath(org.id)}/${endpoint.body.id}/event`;
    const hidden = await keeper.post(`${base}/${valuation.id}/resend`).expect(404);
    expect(hidden.body).toEqual(ERROR_BODIES[404]);
    await keeper.post(`${base}/${renamed.id}/resend`).expect(200);
    await owner.post(`${base}/${valuation.id}/resend`).expect(200);
  });

  it.each([
    [
      'https://hook-user:hook-secret@[3ffe::10]:8443/in/secret-path?token=t0k3n#fragment',
      'https://[3ffe::10]:8443',
    ],
    ['https://[3ffe::11]/only/a/path', 'https://[3ffe::11]'],
    ['https://[3ffe::12]:443/?key=value', 'https://[3ffe::12]'],
    ['https://:password-only@[3ffe::13]/', 'https://[3ffe::13]'],
    ['http://user@127.0.0.1:8080/x', 'http://127.0.0.1:8080'],
  ])('lists %s as %s to those who may not edit the organization', async (url, origin) => {
    const { owner, org } = await world(['canViewOrganization']);
    const created = await register(owner, org.id, { url }).expect(201);
    const viewer = await memberAgent(t, owner, org.id, 'Viewer');
    const shareholder = await memberAgent(t, owner, org.id, 'Shareholder');
    for (const agent of [viewer.agent, shareholder.agent]) {
      const res = await agent.get(webhookPath(org.id)).expect(200);
      expect(res.body.data).toEqual([
        expect.objectContaining({ id: created.body.id, url: origin }),
      ]);
    }
    // Those who may change it see it whole, as they wrote it.
    const whole = (await owner.get(webhookPath(org.id)).expect(200)).body.data[0].url;
    expect(whole).toBe(created.body.url);
    expect(whole).not.toBe(origin);
  });
});
