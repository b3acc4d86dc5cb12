import { randomBytes } from 'node:crypto';
import { verifyServiceSignature } from '../../../src/webhooks/signing';
import { verifyStandardSignature } from '../../../src/webhooks/standard-webhooks';
import { WebhookReceiver } from '../../fakes/webhook-receiver';
import { createTestApp, TestApp } from '../../support/app';
import { ERROR_BODIES } from '../../support/errors';
import { eventually } from '../../support/eventually';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import {
  consumerNow,
  controlClock,
  deliveriesOf,
  receivedAt,
  registerEndpoint,
  standardHeaders,
  webhookPath,
} from '../../support/webhooks';
import { ownerWithOrg } from '../../support/world';

const unknownId = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`;

describe('webhook delivery (spec section 6)', () => {
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

  let n = 0;
  async function world() {
    const { owner, org } = await ownerWithOrg(t, 'Hooked Inc.');
    const path = `/w${++n}`;
    const endpoint = await registerEndpoint(owner.agent, org.id, receiver, { path });
    const rename = (name: string) =>
      owner.agent.patch(`/v1/organization/${org.id}`).send({ name }).expect(200);
    return { owner, org, path, endpoint, rename };
  }

  it('posts the event as JSON, signed in both schemes, without the actor or description', async () => {
    const { owner, org, path, endpoint, rename } = await world();
    await rename('Renamed Inc.');
    const [got] = await receivedAt(receiver, path, 1);
    expect(got.headers['content-type']).toBe('application/json');
    const stored = await owner.agent.get(`/v1/organization/${org.id}/event/${got.event.id}`);
    expect(stored.status).toBe(200);
    expect(JSON.parse(got.body)).toEqual(stored.body);
    expect(Object.keys(got.event)).toEqual([
      'id',
      'type',
      'api_version',
      'created',
      'organization',
      'data',
    ]);
    expect(got.event).toMatchObject({
      type: 'organization.updated',
      organization: org.id,
      data: {
        object: { id: org.id, name: 'Renamed Inc.' },
        previous_attributes: { name: 'Hooked Inc.' },
      },
    });
    expect(got.headers['webhook-id']).toBe(got.event.id);
    const t0 = Number(got.headers['webhook-timestamp']);
    expect(Math.abs(t0 - Date.now() / 1000)).toBeLessThan(60);
    expect(got.headers['service-signature']).toMatch(new RegExp(`^t=${t0},v1=[0-9a-f]{64}$`));
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(
      verifyServiceSignature(
        got.headers['service-signature'],
        got.body,
        endpoint.secret,
        consumerNow(),
      ),
    ).toBe(true);
    const standard = standardHeaders(got);
    expect(verifyStandardSignature(standard, got.body, endpoint.secret, consumerNow())).toBe(true);
    const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
    expect(
      verifyServiceSignature(
        got.headers['service-signature'],
        got.body,
        otherSecret,
        consumerNow(),
      ),
    ).toBe(false);
    expect(verifyStandardSignature(standard, `${got.body} `, endpoint.secret, consumerNow())).toBe(
      false,
    );

    const listed = await eventually(async () => {
      const [one] = (await owner.agent.get(webhookPath(org.id)).expect(200)).body.data;
      return one.lastDelivery?.status === 'succeeded' && one;
    });
    expect(listed.lastDelivery).toEqual({
      timestamp: expect.any(String),
      status: 'succeeded',
      httpStatus: 200,
      eventType: 'organization.updated',
    });
    const history = await owner.agent
      .get(`${webhookPath(org.id)}/${endpoint.id}/delivery`)
      .expect(200);
    expect(history.body).toEqual({
      data: [
        {
          id: expect.any(String),
          eventId: got.event.id,
          eventType: 'organization.updated',
          attempt: 1,
          timestamp: listed.lastDelivery.timestamp,
          httpStatus: 200,
          responseTime: expect.any(Number),
          responseBody: 'ok',
          error: null,
        },
      ],
    });
  });

  it('sends an endpoint only its types, nothing to inactive endpoints or other organizations', async () => {
    const { owner, org, path, rename } = await world();
    const roles = await registerEndpoint(owner.agent, org.id, receiver, {
      path: `${path}-roles`,
      events: ['role.created'],
    });
    const off = await registerEndpoint(owner.agent, org.id, receiver, { path: `${path}-off` });
    await owner.agent
      .patch(`${webhookPath(org.id)}/${off.id}`)
      .send({ active: false })
      .expect(200);
    const other = await createOrg(owner.agent, 'Elsewhere');
    await registerEndpoint(owner.agent, other.id, receiver, { path: `${path}-other` });

    await rename('Only Everything');
    await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Auditor', permissions: ['canViewOrganization'] })
      .expect(201);
    const all = await receivedAt(receiver, path, 2);
    expect(all.map((r) => r.event.type)).toEqual(['organization.updated', 'role.created']);
    const [role] = await receivedAt(receiver, `${path}-roles`, 1);
    expect(role.event).toMatchObject({
      type: 'role.created',
      data: { object: { name: 'Auditor' } },
    });
    expect(role.event.id).toBe(all[1].event.id);
    expect(await deliveriesOf(t, roles.id)).toHaveLength(1);
    expect(await deliveriesOf(t, off.id)).toEqual([]);
    expect(receiver.at(`${path}-off`)).toEqual([]);
    // The other organization's own event (its creation) was before the endpoint existed.
    expect(receiver.at(`${path}-other`)).toEqual([]);
  });

  it('sends one endpoint’s events in the order they were written', async () => {
    const { owner, org, path, rename } = await world();
    for (let i = 1; i <= 6; i++) await rename(`Name ${i}`);
    const got = await receivedAt(receiver, path, 6);
    const listed = (await owner.agent.get(`/v1/organization/${org.id}/event`).expect(200)).body
      .data as { id: string; type: string }[];
    const written = listed
      .filter((e) => e.type === 'organization.updated')
      .map((e) => e.id)
      .reverse();
    expect(got.map((r) => r.event.id)).toEqual(written);
    expect(got.map((r) => r.event.data.object.name)).toEqual(
      [1, 2, 3, 4, 5, 6].map((i) => `Name ${i}`),
    );
  });

  describe('test event', () => {
    it('sends the organization once as the given type, answers the result, and stores no event', async () => {
      const { owner, org, path, endpoint } = await world();
      const url = `${webhookPath(org.id)}/${endpoint.id}/test`;
      const res = await owner.agent.post(url).send({}).expect(200);
      expect(res.body).toEqual({
        success: true,
        deliveryId: expect.stringMatching(/^whd_[0-9a-f]{32}$/),
        httpStatus: 200,
        responseTime: expect.any(Number),
        event: { id: expect.stringMatching(/^evt_[0-9a-f]{32}$/), type: 'organization.updated' },
      });
      const [got] = receiver.at(path);
      const organization = await owner.agent.get(`/v1/organization/${org.id}`).expect(200);
      expect(got.event).toMatchObject({
        id: res.body.event.id,
        type: 'organization.updated',
        organization: org.id,
        data: { object: organization.body, previous_attributes: {} },
      });
      expect(
        verifyServiceSignature(
          got.headers['service-signature'],
          got.body,
          endpoint.secret,
          consumerNow(),
        ),
      ).toBe(true);
      await owner.agent.get(`/v1/organization/${org.id}/event/${res.body.event.id}`).expect(404);

      const typed = await owner.agent
        .post(url)
        .send({ event_type: 'shareholding.created' })
        .expect(200);
      expect(typed.body.event.type).toBe('shareholding.created');
      expect(receiver.at(path)[1].event).toMatchObject({
        type: 'shareholding.created',
        data: { object: organization.body },
      });

      receiver.respond = (r) => (r.path === path ? { status: 503, body: 'down' } : { status: 200 });
      try {
        const failed = await owner.agent.post(url).send({}).expect(200);
        expect(failed.body).toMatchObject({
          success: false,
          httpStatus: 503,
          error: expect.stringMatching(/503/),
        });
        // Not retried: the test delivery ended with its one attempt.
        const rows = await deliveriesOf(t, endpoint.id);
        expect(rows.filter((d) => d.test).map((d) => [d.status, d.attempts])).toEqual([
          ['succeeded', 1],
          ['succeeded', 1],
          ['failed', 1],
        ]);
        expect(rows.every((d) => d.next_attempt_at === null)).toBe(true);
      } finally {
        receiver.respond = () => ({ status: 200, body: 'ok' });
      }
      for (const body of [
        { event_type: 'nope' },
        { event_type: 'legend.created' },
        { event_type: 7 },
      ]) {
        await owner.agent.post(url).send(body).expect(400);
      }
    });

    it('answers httpStatus 0 with the reason when no response comes', async () => {
      const { owner, org, endpoint } = await world();
      const closed = await WebhookReceiver.start();
      const url = closed.url('/gone');
      await closed.close();
      await owner.agent
        .patch(`${webhookPath(org.id)}/${endpoint.id}`)
        .send({ url })
        .expect(200);
      const res = await owner.agent
        .post(`${webhookPath(org.id)}/${endpoint.id}/test`)
        .send({})
        .expect(200);
      expect(res.body).toMatchObject({ success: false, httpStatus: 0, error: expect.any(String) });
      expect(res.body.error).toMatch(/ECONNREFUSED/);
    });
  });

  it('resends a stored event with the same id; 404 for another organization’s; 409 while disabled', async () => {
    const { owner, org, path, endpoint, rename } = await world();
    await rename('Once');
    const [first] = await receivedAt(receiver, path, 1);
    const url = `${webhookPath(org.id)}/${endpoint.id}/event/${first.event.id}/resend`;
    const res = await owner.agent.post(url).expect(200);
    expect(res.body).toEqual({
      deliveryId: expect.stringMatching(/^whd_/),
      event: { id: first.event.id, type: 'organization.updated' },
    });
    const [, again] = await receivedAt(receiver, path, 2);
    expect(again.event.id).toBe(first.event.id);
    expect(again.body).toBe(first.body);
    expect(again.headers['webhook-id']).toBe(first.event.id);

    const other = await createOrg(owner.agent, 'Foreign');
    const [foreignEvent] = (await owner.agent.get(`/v1/organization/${other.id}/event`).expect(200))
      .body.data;
    for (const eventId of [foreignEvent.id, unknownId('evt')]) {
      const missing = await owner.agent
        .post(`${webhookPath(org.id)}/${endpoint.id}/event/${eventId}/resend`)
        .expect(404);
      expect(missing.body).toEqual(ERROR_BODIES[404]);
    }
    await owner.agent.post(`${webhookPath(org.id)}/${endpoint.id}/event/nope/resend`).expect(400);
    await owner.agent
      .patch(`${webhookPath(org.id)}/${endpoint.id}`)
      .send({ active: false })
      .expect(200);
    await owner.agent.post(url).expect(409);
  });

  it('keeps the first 1 KiB of each response and pages the history newest first', async () => {
    const { owner, org, path, endpoint, rename } = await world();
    receiver.respond = (r) =>
      r.path === path ? { status: 200, body: 'é'.repeat(3000) } : { status: 200 };
    try {
      for (let i = 1; i <= 3; i++) await rename(`Page ${i}`);
      await receivedAt(receiver, path, 3);
    } finally {
      receiver.respond = () => ({ status: 200, body: 'ok' });
    }
    const history = `${webhookPath(org.id)}/${endpoint.id}/delivery`;
    type Attempt = { id: string; eventId: string; responseBody: string };
    const all = await eventually(async (): Promise<Attempt[]> => {
      const res = await owner.agent.get(history).expect(200);
      if (res.body.data.length !== 3) throw new Error('not yet');
      return res.body.data as Attempt[];
    });
    for (const attempt of all) {
      expect(Buffer.byteLength(attempt.responseBody)).toBeLessThanOrEqual(1024);
      expect(attempt.responseBody.startsWith('é'.repeat(500))).toBe(true);
    }
    const got = receiver.at(path).map((r) => r.event.id);
    expect(all.map((a) => a.eventId)).toEqual([...got].reverse());
    const pages: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = (
        await owner.agent
          .get(history)
          .query({ limit: 1, ...(after ? { after } : {}) })
          .expect(200)
      ).body.data as { id: string }[];
      if (!page.length) break;
      pages.push(page[0].id);
      after = page[0].id;
    }
    expect(pages).toEqual(all.map((a) => a.id));
    for (const query of [
      { limit: 0 },
      { limit: 101 },
      { after: 'x' },
      { after: randomUUIDLike() },
      { since: 1 },
    ]) {
      await owner.agent.get(history).query(query).expect(400);
    }
  });

  it('rotates the secret: both secrets sign for 24 hours, then only the new one', async () => {
    const { owner, org, path, endpoint, rename } = await world();
    const clock = controlClock(t);
    try {
      const rotated = await owner.agent
        .post(`${webhookPath(org.id)}/${endpoint.id}/secret/rotate`)
        .expect(200);
      expect(rotated.body).toEqual({
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        previousSecretExpiresAt: new Date(clock.now.getTime() + 24 * 3600_000).toISOString(),
      });
      const fresh = rotated.body.secret as string;
      expect(fresh).not.toBe(endpoint.secret);
      await rename('Rotated');
      const [got] = await receivedAt(receiver, path, 1);
      expect(got.headers['service-signature'].match(/v1=/g)).toHaveLength(2);
      expect(got.headers['webhook-signature'].split(' ')).toHaveLength(2);
      const now = Math.floor(clock.now.getTime() / 1000);
      for (const secret of [endpoint.secret, fresh]) {
        expect(
          verifyServiceSignature(got.headers['service-signature'], got.body, secret, { now }),
        ).toBe(true);
        expect(verifyStandardSignature(standardHeaders(got), got.body, secret, { now })).toBe(true);
      }
      clock.advance(24 * 3600_000 + 1000);
      await rename('Rotated again');
      const [, later] = await receivedAt(receiver, path, 2);
      const then = Math.floor(clock.now.getTime() / 1000);
      expect(later.headers['service-signature'].match(/v1=/g)).toHaveLength(1);
      expect(
        verifyServiceSignature(later.headers['service-signature'], later.body, fresh, {
          now: then,
        }),
      ).toBe(true);
      expect(
        verifyServiceSignature(later.headers['service-signature'], later.body, endpoint.secret, {
          now: then,
        }),
      ).toBe(false);
      expect(
        verifyStandardSignature(standardHeaders(later), later.body, fresh, { now: then }),
      ).toBe(true);
    } finally {
      clock.restore();
    }
  });

  it('takes 30 test events and resends per organization and minute, then 429 with Retry-After', async () => {
    const { owner, org, path, endpoint, rename } = await world();
    await rename('Limited');
    const [got] = await receivedAt(receiver, path, 1);
    const base = `${webhookPath(org.id)}/${endpoint.id}`;
    for (let i = 0; i < 29; i++) await owner.agent.post(`${base}/test`).send({}).expect(200);
    await owner.agent.post(`${base}/event/${got.event.id}/resend`).expect(200);
    const sent = receiver.at(path).length;
    for (const res of [
      await owner.agent.post(`${base}/test`).send({}),
      await owner.agent.post(`${base}/event/${got.event.id}/resend`),
    ]) {
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['x-ratelimit-limit']).toBe('30');
    }
    expect(receiver.at(path).length).toBeLessThanOrEqual(sent + 1);
    // Another organization's sends are counted apart.
    const other = await world();
    await owner.agent.get(webhookPath(org.id)).expect(200);
    await other.owner.agent
      .post(`${webhookPath(other.org.id)}/${other.endpoint.id}/test`)
      .send({})
      .expect(200);
  });

  it('allows at most 5 signing secrets at once (409)', async () => {
    const { owner, org, endpoint } = await world();
    const rotate = () => owner.agent.post(`${webhookPath(org.id)}/${endpoint.id}/secret/rotate`);
    for (let i = 0; i < 4; i++) await rotate().expect(200);
    expect((await rotate().expect(409)).body.message).toMatch(/at most 5/);
  });

  it('needs canEditOrganization to test, resend, rotate and read the history; another organization’s endpoint is 404', async () => {
    const { owner, org, path, endpoint, rename } = await world();
    await rename('Perms');
    const [got] = await receivedAt(receiver, path, 1);
    const base = `${webhookPath(org.id)}/${endpoint.id}`;
    const writes = (agent: ReturnType<TestApp['agent']>) => [
      agent.post(`${base}/test`).send({}),
      agent.post(`${base}/event/${got.event.id}/resend`),
      agent.post(`${base}/secret/rotate`),
    ];
    for (const res of [
      ...(await Promise.all(writes(t.agent()))),
      await t.http.get(`${base}/delivery`),
    ]) {
      expect(res.status).toBe(401);
    }
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    for (const res of [
      ...(await Promise.all(writes(viewer.agent))),
      // The receivers' answers are for those who run the endpoints (issue 35 section 2).
      await viewer.agent.get(`${base}/delivery`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(ERROR_BODIES[403]);
    }
    const outsider = await loggedInAgent(t);
    const own = await createOrg(outsider.agent, 'Outsider');
    await outsider.agent.get(`${base}/delivery`).expect(403);
    // The outsider's own organization in the path, the victim's endpoint id: unknown there.
    const foreign = `${webhookPath(own.id)}/${endpoint.id}`;
    for (const res of [
      await outsider.agent.post(`${foreign}/test`).send({}),
      await outsider.agent.post(`${foreign}/event/${got.event.id}/resend`),
      await outsider.agent.post(`${foreign}/secret/rotate`),
      await outsider.agent.get(`${foreign}/delivery`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(ERROR_BODIES[404]);
    }
    // Only the real rename arrived: no refused test, resend or other organization's call sent one.
    const updates = receiver.at(path).filter((r) => r.event.type === 'organization.updated');
    expect(updates.map((r) => r.event.id)).toEqual([got.event.id]);
  });
});

function randomUUIDLike() {
  return '8d3c0b0e-5b9a-4c4e-9f6a-0d9b2f1e7a11';
}
