import { createTestApp, TestApp } from '../../support/app';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

describe('organizations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates an organization with its entity and makes the creator Owner', async () => {
    const { agent, user } = await loggedInAgent(t);
    const res = await agent
      .post('/v1/organization')
      .send({
        name: ' Acme ',
        legalName: 'Acme Holdings, Inc.',
        country: 'us',
        currency: 'eur',
        type: 'llc',
      })
      .expect(201);
    expect(res.body).toMatchObject({
      name: 'Acme',
      legalName: 'Acme Holdings, Inc.',
      country: 'US',
      currency: 'EUR',
      type: 'llc',
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.entity).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof res.body.created).toBe('string');
    const members = await agent.get(`/v1/organization/${res.body.id}/member`).expect(200);
    expect(members.body).toEqual([
      expect.objectContaining({
        user: user.id,
        role: '00000000-0000-4000-8000-000000000001',
        status: 'active',
      }),
    ]);
  });

  it('defaults currency to USD and type to corporation', async () => {
    const { agent } = await loggedInAgent(t);
    const res = await agent.post('/v1/organization').send({ name: 'Plain' }).expect(201);
    expect(res.body).toMatchObject({
      currency: 'USD',
      type: 'corporation',
      legalName: null,
      country: null,
    });
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 'X', country: 'USA' }, 'country'],
    [{ name: 'X', currency: 'DOLLARS' }, 'currency'],
    [{ name: 'X', type: 'partnership' }, 'type'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const { agent } = await loggedInAgent(t);
    const res = await agent.post('/v1/organization').send(body).expect(400);
    expect(res.body.error).toBe('Bad Request');
    expect(res.body.message).toContain(field);
  });

  it('requires a session', async () => {
    await t.http
      .post('/v1/organization')
      .send({ name: 'X' })
      .expect(401, { error: 'Unauthorized' });
    await t.http.get('/v1/organization').expect(401);
  });

  it('lists only the caller’s organizations', async () => {
    const a = await loggedInAgent(t);
    const b = await loggedInAgent(t);
    const orgA = await createOrg(a.agent, 'A1');
    await createOrg(b.agent, 'B1');
    const res = await a.agent.get('/v1/organization').expect(200);
    expect(res.body.map((o: { id: string }) => o.id)).toEqual([orgA.id]);
  });

  it('GET one: member 200, outsider 403, unknown 404, malformed 400', async () => {
    const a = await loggedInAgent(t);
    const b = await loggedInAgent(t);
    const org = await createOrg(a.agent);
    await a.agent.get(`/v1/organization/${org.id}`).expect(200);
    await b.agent.get(`/v1/organization/${org.id}`).expect(403, { error: 'Forbidden' });
    await a.agent
      .get('/v1/organization/1b4e28ba-2fa1-41d2-883f-0016d3cca427')
      .expect(404, { error: 'Not Found' });
    await a.agent.get('/v1/organization/not-a-uuid').expect(400);
  });

  it('PATCH: Owner changes, Viewer is refused, outsider is refused', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Before');
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    const outsider = await loggedInAgent(t);
    const res = await owner.agent
      .patch(`/v1/organization/${org.id}`)
      .send({ name: 'After', country: 'de' })
      .expect(200);
    expect(res.body).toMatchObject({ name: 'After', country: 'DE' });
    await viewer.agent.patch(`/v1/organization/${org.id}`).send({ name: 'Hacked' }).expect(403);
    await outsider.agent.patch(`/v1/organization/${org.id}`).send({ name: 'Hacked' }).expect(403);
    await owner.agent.patch(`/v1/organization/${org.id}`).send({ currency: 'nope' }).expect(400);
    const after = await viewer.agent.get(`/v1/organization/${org.id}`).expect(200);
    expect(after.body.name).toBe('After');
  });
});
