import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { errorBody } from '../../support/errors';
import { eventually } from '../../support/eventually';

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
    await t.http.post('/v1/organization').send({ name: 'X' }).expect(401).expect(errorBody(401));
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
    await b.agent.get(`/v1/organization/${org.id}`).expect(403).expect(errorBody(403));
    await a.agent
      .get('/v1/organization/1b4e28ba-2fa1-41d2-883f-0016d3cca427')
      .expect(404)
      .expect(errorBody(404));
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

  it('PATCH: null clears the legal name and country, and is refused for required fields', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Nulls');
    await owner.agent
      .patch(`/v1/organization/${org.id}`)
      .send({ legalName: 'Nulls Incorporated', country: 'US' })
      .expect(200);
    for (const field of ['name', 'currency', 'type']) {
      const res = await owner.agent
        .patch(`/v1/organization/${org.id}`)
        .send({ [field]: null })
        .expect(400);
      expect(res.body.message).toContain(field);
    }
    const cleared = await owner.agent
      .patch(`/v1/organization/${org.id}`)
      .send({ legalName: null, country: null })
      .expect(200);
    expect(cleared.body).toMatchObject({
      name: 'Nulls',
      legalName: null,
      country: null,
      currency: 'USD',
      type: 'corporation',
    });
  });
});

describe('DELETE /v1/organization/:organization', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is the Owner’s alone: Admin and Viewer get 403, an outsider 403, no session 401', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const admin = await memberAgent(t, owner.agent, org.id, 'Admin');
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    const outsider = await loggedInAgent(t);
    await admin.agent.delete(`/v1/organization/${org.id}`).expect(403).expect(errorBody(403));
    await viewer.agent.delete(`/v1/organization/${org.id}`).expect(403);
    await outsider.agent.delete(`/v1/organization/${org.id}`).expect(403);
    await t.http.delete(`/v1/organization/${org.id}`).expect(401);
    await owner.agent.delete('/v1/organization/not-a-uuid').expect(400);
    await owner.agent.get(`/v1/organization/${org.id}`).expect(200);
  });

  it('deletes softly: every route of it answers 404, it leaves every member’s list, the rows stay', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Doomed');
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    const kept = await createOrg(owner.agent, 'Kept');
    const deleted = await owner.agent.delete(`/v1/organization/${org.id}`).expect(200);
    expect(deleted.body).toEqual({});

    await owner.agent.get(`/v1/organization/${org.id}`).expect(404).expect(errorBody(404));
    await owner.agent.get(`/v1/organization/${org.id}/member`).expect(404);
    await owner.agent.patch(`/v1/organization/${org.id}`).send({ name: 'Back' }).expect(404);
    await owner.agent.delete(`/v1/organization/${org.id}`).expect(404);
    await viewer.agent.get(`/v1/organization/${org.id}`).expect(404);
    await owner.agent
      .patch(`/v1/organization/${org.id}/member/${viewer.member.id}`)
      .send({ title: 'x' })
      .expect(404);
    const mine = await owner.agent.get('/v1/organization').expect(200);
    expect(mine.body.map((o: { id: string }) => o.id)).toEqual([kept.id]);
    expect((await viewer.agent.get('/v1/organization').expect(200)).body).toEqual([]);

    const rows = await t
      .get<DataSource>(DataSource)
      .query('SELECT name, deleted_at FROM organization WHERE id = $1', [org.id]);
    expect(rows[0]).toMatchObject({ name: 'Doomed', deleted_at: expect.any(Date) });
    const events = await t.get<DataSource>(DataSource).query(
      `SELECT type, description, actor_user_id FROM outbox_event
         WHERE organization_id = $1 AND type = 'organization.deleted'`,
      [org.id],
    );
    expect(events).toEqual([
      {
        type: 'organization.deleted',
        description: 'organization Doomed: deleted',
        actor_user_id: owner.user.id,
      },
    ]);
    // Its activity entry is written too (the rows stay for the audit trail).
    await eventually(async () => {
      const entries = await t
        .get<DataSource>(DataSource)
        .query(`SELECT type FROM activity_action WHERE organization_id = $1`, [org.id]);
      return entries.some((e: { type: string }) => e.type === 'organization.deleted');
    });
  });
});

describe('one member, one role', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET .../member/:member: canViewMember roles and the member themselves; others 403', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const recorded = await owner.agent
      .post(`/v1/organization/${org.id}/member`)
      .send({ name: 'Recorded Person', email: 'recorded@example.com' })
      .expect(201);
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    const holder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
    const outsider = await loggedInAgent(t);
    const path = (id: string) => `/v1/organization/${org.id}/member/${id}`;

    expect((await viewer.agent.get(path(recorded.body.id)).expect(200)).body).toEqual(
      recorded.body,
    );
    expect((await holder.agent.get(path(holder.member.id)).expect(200)).body).toMatchObject({
      id: holder.member.id,
      user: holder.user.id,
    });
    await holder.agent.get(path(recorded.body.id)).expect(403).expect(errorBody(403));
    await outsider.agent.get(path(recorded.body.id)).expect(403);
    await t.http.get(path(recorded.body.id)).expect(401);
    await owner.agent.get(path('6f1c1d1e-0000-4000-8000-000000000000')).expect(404);
    await owner.agent.get(path('nope')).expect(400);
    // Removed members are gone.
    await owner.agent.delete(path(recorded.body.id)).expect(200);
    await owner.agent.get(path(recorded.body.id)).expect(404);
  });

  it('GET .../role/:role: built-in and own roles for members; another organization’s 404', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const other = await loggedInAgent(t);
    const otherOrg = await createOrg(other.agent);
    const custom = await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Auditor', permissions: ['canViewCapTable'] })
      .expect(201);
    const holder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
    expect(
      (await holder.agent.get(`/v1/organization/${org.id}/role/${custom.body.id}`).expect(200))
        .body,
    ).toEqual({
      id: custom.body.id,
      name: 'Auditor',
      builtIn: false,
      organization: org.id,
      permissions: ['canViewCapTable'],
    });
    const viewerRole = '00000000-0000-4000-8000-000000000004';
    expect(
      (await holder.agent.get(`/v1/organization/${org.id}/role/${viewerRole}`).expect(200)).body,
    ).toMatchObject({ id: viewerRole, name: 'Viewer', builtIn: true, organization: null });
    await other.agent
      .get(`/v1/organization/${otherOrg.id}/role/${custom.body.id}`)
      .expect(404)
      .expect(errorBody(404));
    await other.agent.get(`/v1/organization/${org.id}/role/${custom.body.id}`).expect(403);
    await t.http.get(`/v1/organization/${org.id}/role/${custom.body.id}`).expect(401);
    const deleted = await owner.agent
      .delete(`/v1/organization/${org.id}/role/${custom.body.id}`)
      .expect(200);
    expect(deleted.body).toEqual({});
    await owner.agent.get(`/v1/organization/${org.id}/role/${custom.body.id}`).expect(404);
  });
});
