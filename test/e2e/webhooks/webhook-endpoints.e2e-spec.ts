import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PUBLIC_EVENT_TYPES } from '../../../src/events';
import { WebhookHostResolver } from '../../../src/webhooks/host-resolver';
import { createTestApp, TestApp } from '../../support/app';
import { ERROR_BODIES } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { ownerWithOrg } from '../../support/world';

const path = (org: string) => `/v1/organization/${org}/webhook`;
const unknownWebhookId = () => `wh_${randomBytes(16).toString('hex')}`;
// Literal global unicast addresses of 3ffe::/16 (the 6bone's, returned and never allocated since):
// no name lookup, and no test ever sends to them. Documentation ranges (203.0.113.0/24,
// 2001:db8::/32) are refused as no global unicast address. Endpoints with such a URL are
// registered inactive wherever events may follow: nothing is sent.
const PUBLIC_URL = 'https://[3ffe::10]/ledgerline';
/** The one answer for a refused host name, whatever it resolved to (issue 35, Low). */
const NAME_REFUSED = 'url must resolve to a public address';
const URL_REFUSED = {
  error: 'Bad Request',
  message: expect.any(String),
  key: 'webhookUrlNotAllowed',
};

const REFUSED_URLS = [
  'http://127.0.0.1:4000/hook',
  'http://2130706433/hook',
  'http://[::1]/hook',
  'http://10.0.0.1/hook',
  'http://192.168.1.20/hook',
  'http://169.254.169.254/latest/meta-data',
  'http://[::ffff:127.0.0.1]/hook',
  'http://[fd00:ec2::254]/',
  'http://[fd12::1]/hook',
  'http://localhost:3000/hook',
  'ftp://[3ffe::10]/hook',
  'file:///etc/passwd',
  // No global unicast address (issue 35, Low): special-purpose ranges the old deny list let pass.
  'https://[::7f00:1]/hook',
  'https://[::a00:1]/hook',
  'https://[64:ff9b:1::a00:1]/hook',
  'https://[64:ff9b::7f00:1]/hook',
  'https://198.18.0.1/hook',
  'https://224.0.0.1/hook',
  'https://[ff02::1]/hook',
  'https://240.0.0.1/hook',
  'https://255.255.255.255/hook',
  'https://203.0.113.10/hook',
  'https://[2001:db8::5]/hook',
];

describe('webhook endpoints (spec section 6)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const stored = async (org: string) =>
    (await t
      .get<DataSource>(DataSource)
      .query(`SELECT * FROM webhook_endpoint WHERE organization_id = $1 ORDER BY created`, [
        org,
      ])) as { id: string; secret: string; url: string }[];

  it('registers an endpoint: 201 with the secret once, listed afterwards without it', async () => {
    const { owner, org } = await ownerWithOrg(t);
    const res = await owner.agent
      .post(path(org.id))
      .send({ url: PUBLIC_URL, description: 'Accounting', active: false })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^wh_[0-9a-f]{32}$/),
      url: PUBLIC_URL,
      events: ['*'],
      description: 'Accounting',
      active: false,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      created: expect.any(String),
    });
    expect(Buffer.from(res.body.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const [row] = await stored(org.id);
    expect(row.id).toBe(res.body.id);
    expect(row.secret).not.toContain(res.body.secret.slice('whsec_'.length));

    const second = await owner.agent
      .post(path(org.id))
      .send({ url: 'https://[3ffe::5]/in', events: ['member.added', 'shareholding.created'] })
      .expect(201);
    expect(second.body).toMatchObject({ description: null, active: true });

    const list = await owner.agent.get(path(org.id)).expect(200);
    expect(list.body).toEqual({
      data: [
        {
          id: res.body.id,
          url: PUBLIC_URL,
          events: ['*'],
          description: 'Accounting',
          active: false,
          created: res.body.created,
          lastDelivery: null,
          disabledAt: null,
          disabledReason: null,
        },
        {
          id: second.body.id,
          url: 'https://[3ffe::5]/in',
          events: ['member.added', 'shareholding.created'],
          description: null,
          active: true,
          created: second.body.created,
          lastDelivery: null,
          disabledAt: null,
          disabledReason: null,
        },
      ],
    });
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
  });

  it('takes every catalogue type; refuses unknown types, [], "*" among others and bad bodies, storing nothing', async () => {
    const { owner, org } = await ownerWithOrg(t);
    const all = await owner.agent
      .post(path(org.id))
      .send({ url: PUBLIC_URL, events: [...PUBLIC_EVENT_TYPES], active: false })
      .expect(201);
    expect(all.body.events).toEqual([...PUBLIC_EVENT_TYPES]);
    await owner.agent.delete(`${path(org.id)}/${all.body.id}`).expect(200);

    const bodies = [
      { url: PUBLIC_URL, events: ['member.added', 'nothing.happened'] },
      { url: PUBLIC_URL, events: ['legend.created'] },
      { url: PUBLIC_URL, events: [] },
      { url: PUBLIC_URL, events: ['*', 'member.added'] },
      { url: PUBLIC_URL, events: ['member.added', 'member.added'] },
      { url: PUBLIC_URL, events: '*' },
      { events: ['*'] },
      { url: '' },
      { url: 'not a url' },
      { url: PUBLIC_URL, active: 'yes' },
      { url: PUBLIC_URL, description: 42 },
    ];
    for (const body of bodies) {
      const res = await owner.agent.post(path(org.id)).send(body);
      expect(`${JSON.stringify(body)} → ${res.status} ${res.body.error}`).toBe(
        `${JSON.stringify(body)} → 400 Bad Request`,
      );
    }
    expect(await stored(org.id)).toEqual([]);
  });

  it('refuses loopback, private, metadata and non-http URLs (400 webhookUrlNotAllowed), storing nothing', async () => {
    const { owner, org } = await ownerWithOrg(t);
    for (const url of REFUSED_URLS) {
      const res = await owner.agent.post(path(org.id)).send({ url });
      expect(`${url} → ${res.status}`).toBe(`${url} → 400`);
      expect(res.body).toEqual(URL_REFUSED);
    }
    expect(await stored(org.id)).toEqual([]);
  });

  it('resolves host names and refuses one with any refused address', async () => {
    const { owner, org } = await ownerWithOrg(t);
    const resolver = t.get<WebhookHostResolver>(WebhookHostResolver);
    const lookup = jest.spyOn(resolver, 'resolve');
    try {
      // Refusals never tell how a name resolved: one message for a private address, a special
      // range, a metadata address and no answer at all (issue 35, Low).
      const answers: [string, () => void][] = [
        ['10.1.2.3', () => lookup.mockResolvedValue(['3ffe::20', '10.1.2.3'])],
        ['198.18.0.1', () => lookup.mockResolvedValue(['198.18.0.1'])],
        ['169.254.169.254', () => lookup.mockResolvedValue(['169.254.169.254'])],
        ['no address', () => lookup.mockResolvedValue([])],
        [
          'ENOTFOUND',
          () =>
            lookup.mockRejectedValue(Object.assign(new Error('not found'), { code: 'ENOTFOUND' })),
        ],
      ];
      for (const [why, answer] of answers) {
        answer();
        const refused = await owner.agent
          .post(path(org.id))
          .send({ url: 'https://hooks.acme.test/in' })
          .expect(400);
        expect({ why, body: refused.body }).toEqual({
          why,
          body: { ...URL_REFUSED, message: NAME_REFUSED },
        });
      }
      expect(lookup).toHaveBeenCalledWith('hooks.acme.test');
      expect(await stored(org.id)).toEqual([]);
      lookup.mockResolvedValue(['3ffe::20', '2606:4700:4700::1111']);
      await owner.agent
        .post(path(org.id))
        .send({ url: 'https://hooks.acme.test/in', active: false })
        .expect(201);
    } finally {
      lookup.mockRestore();
    }
  });

  it('changes url, events, description and active; checks a new URL; active: true re-enables', async () => {
    const { owner, org } = await ownerWithOrg(t);
    const created = await owner.agent
      .post(path(org.id))
      .send({ url: PUBLIC_URL, active: false })
      .expect(201);
    const url = `${path(org.id)}/${created.body.id}`;
    const res = await owner.agent
      .patch(url)
      .send({
        url: 'https://[3ffe::4]/v2',
        events: ['organization.updated'],
        description: 'Ops',
        active: false,
      })
      .expect(200);
    expect(res.body).toEqual({
      id: created.body.id,
      url: 'https://[3ffe::4]/v2',
      events: ['organization.updated'],
      description: 'Ops',
      active: false,
      created: created.body.created,
      lastDelivery: null,
      disabledAt: null,
      disabledReason: null,
    });
    for (const body of [
      { url: 'http://127.0.0.1/x' },
      { url: 'http://169.254.169.254/' },
      { url: 'gopher://[3ffe::4]/' },
    ]) {
      expect((await owner.agent.patch(url).send(body).expect(400)).body).toEqual(URL_REFUSED);
    }
    for (const body of [{ events: [] }, { events: ['nope'] }, { url: '' }, { active: 1 }]) {
      await owner.agent.patch(url).send(body).expect(400);
    }
    const cleared = await owner.agent.patch(url).send({ description: null }).expect(200);
    expect(cleared.body).toMatchObject({ url: 'https://[3ffe::4]/v2', description: null });

    // As delivery disables an endpoint that answered 410 Gone.
    await t
      .get<DataSource>(DataSource)
      .query(
        `UPDATE webhook_endpoint SET active = false, disabled_at = now(), disabled_reason = 'gone' WHERE id = $1`,
        [created.body.id],
      );
    const disabled = (await owner.agent.get(path(org.id)).expect(200)).body.data[0];
    expect(disabled).toMatchObject({
      active: false,
      disabledAt: expect.any(String),
      disabledReason: 'gone',
    });
    const enabled = await owner.agent.patch(url).send({ active: true }).expect(200);
    expect(enabled.body).toMatchObject({ active: true, disabledAt: null, disabledReason: null });
  });

  it('takes at most 16 endpoints per organization, racing registrations included (409 beyond, nothing stored)', async () => {
    const { owner, org } = await ownerWithOrg(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        owner.agent.post(path(org.id)).send({ url: PUBLIC_URL, active: false }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(16);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/at most 16/);
    }
    expect(await stored(org.id)).toHaveLength(16);
    // Another organization is not held to this one's count.
    const other = await ownerWithOrg(t, 'Other Hooks');
    await other.owner.agent
      .post(path(other.org.id))
      .send({ url: PUBLIC_URL, active: false })
      .expect(201);
  });

  it('deletes an endpoint: 200 {}, then 404', async () => {
    const { owner, org } = await ownerWithOrg(t);
    const created = await owner.agent
      .post(path(org.id))
      .send({ url: PUBLIC_URL, active: false })
      .expect(201);
    const url = `${path(org.id)}/${created.body.id}`;
    expect((await owner.agent.delete(url).expect(200)).body).toEqual({});
    expect((await owner.agent.get(path(org.id)).expect(200)).body).toEqual({ data: [] });
    expect((await owner.agent.delete(url).expect(404)).body).toEqual(ERROR_BODIES[404]);
    expect((await owner.agent.patch(url).send({ active: true }).expect(404)).body).toEqual(
      ERROR_BODIES[404],
    );
  });

  it('answers 404 for another organization’s endpoint and an unknown one, 400 for a malformed id', async () => {
    const { owner, org } = await ownerWithOrg(t);
    const other = await createOrg(owner.agent, 'Other');
    const foreign = await owner.agent
      .post(path(other.id))
      .send({ url: PUBLIC_URL, active: false })
      .expect(201);
    for (const id of [foreign.body.id, unknownWebhookId()]) {
      const url = `${path(org.id)}/${id}`;
      expect((await owner.agent.patch(url).send({ active: false }).expect(404)).body).toEqual(
        ERROR_BODIES[404],
      );
      expect((await owner.agent.delete(url).expect(404)).body).toEqual(ERROR_BODIES[404]);
    }
    expect((await owner.agent.get(path(org.id)).expect(200)).body).toEqual({ data: [] });
    expect((await stored(other.id)).map((r) => r.url)).toEqual([PUBLIC_URL]);
    for (const id of ['wh_123', `wh_${'A'.repeat(32)}`, 'c0ffee00-0000-4000-8000-000000000000']) {
      await owner.agent.delete(`${path(org.id)}/${id}`).expect(400);
    }
  });

  it('needs a session (401), canViewOrganization to list and canEditOrganization to write (403)', async () => {
    const { owner, org } = await ownerWithOrg(t);
    const created = await owner.agent
      .post(path(org.id))
      .send({ url: PUBLIC_URL, active: false })
      .expect(201);
    const one = `${path(org.id)}/${created.body.id}`;
    const calls = (agent: ReturnType<TestApp['agent']>) => [
      agent.get(path(org.id)),
      agent.post(path(org.id)).send({ url: PUBLIC_URL }),
      agent.patch(one).send({ active: false }),
      agent.delete(one),
    ];
    for (const res of await Promise.all(calls(t.agent()))) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(ERROR_BODIES[401]);
    }
    const outsider = await loggedInAgent(t);
    await createOrg(outsider.agent, 'Outsider Inc.');
    for (const res of await Promise.all(calls(outsider.agent))) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(ERROR_BODIES[403]);
    }
    const auditor = await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Auditor', permissions: ['canViewOrganization'] })
      .expect(201);
    const member = await memberAgent(t, owner.agent, org.id, auditor.body.name);
    const [list, ...writes] = await Promise.all(calls(member.agent));
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([created.body.id]);
    for (const res of writes) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(ERROR_BODIES[403]);
    }
    expect(await stored(org.id)).toHaveLength(1);
  });
});

describe('webhook endpoints with WEBHOOK_ALLOW_PRIVATE_URLS=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  });
  afterAll(() => t.close());

  it('takes loopback and private URLs, never metadata addresses or other schemes', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Private Inc.');
    for (const url of [
      'http://127.0.0.1:4000/hook',
      'http://[::1]:4000/hook',
      'http://10.0.0.1/hook',
      'http://[::ffff:127.0.0.1]/hook',
    ]) {
      await owner.agent.post(path(org.id)).send({ url, active: false }).expect(201);
    }
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00:ec2::254]/',
      'ftp://127.0.0.1/',
    ]) {
      const res = await owner.agent.post(path(org.id)).send({ url });
      expect(`${url} → ${res.status}`).toBe(`${url} → 400`);
      expect(res.body).toEqual(URL_REFUSED);
    }
  });
});
