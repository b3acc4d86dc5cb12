import { createTestApp, TestApp } from '../../support/app';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

const OWNER = '00000000-0000-4000-8000-000000000001';

describe('roles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists the built-in roles with their permissions', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const res = await owner.agent.get(`/v1/organization/${org.id}/role`).expect(200);
    expect(res.body.map((r: { name: string }) => r.name)).toEqual([
      'Owner',
      'Admin',
      'Editor',
      'Viewer',
      'Shareholder',
    ]);
    const viewer = res.body.find((r: { name: string }) => r.name === 'Viewer');
    expect(viewer.permissions).toContain('canViewCapTable');
    expect(viewer.permissions).not.toContain('canEditCapTable');
  });

  it('creates, changes and deletes a custom role that really grants its permissions', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const created = await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Org editor', permissions: ['canViewOrganization'] })
      .expect(201);
    expect(created.body).toMatchObject({
      name: 'Org editor',
      builtIn: false,
      organization: org.id,
      permissions: ['canViewOrganization'],
    });
    const person = await memberAgent(t, owner.agent, org.id, created.body.id);
    await person.agent.patch(`/v1/organization/${org.id}`).send({ name: 'Renamed' }).expect(403);

    await owner.agent
      .put(`/v1/organization/${org.id}/role/${created.body.id}`)
      .send({ name: 'Org editor', permissions: ['canViewOrganization', 'canEditOrganization'] })
      .expect(200);
    await person.agent.patch(`/v1/organization/${org.id}`).send({ name: 'Renamed' }).expect(200);

    await owner.agent.delete(`/v1/organization/${org.id}/role/${created.body.id}`).expect(409);
    await owner.agent.delete(`/v1/organization/${org.id}/member/${person.member.id}`).expect(200);
    await owner.agent.delete(`/v1/organization/${org.id}/role/${created.body.id}`).expect(200);
    await owner.agent.delete(`/v1/organization/${org.id}/role/${created.body.id}`).expect(404);
    // The name is free again; the removed member keeps naming the old role.
    await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Org editor', permissions: [] })
      .expect(201);
  });

  it('refuses unknown permissions, duplicate names and malformed bodies (400/409)', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const bad = await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'R', permissions: ['canFly'] })
      .expect(400);
    expect(bad.body.message).toContain('canFly');
    await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'R', permissions: ['canReadSite'] })
      .expect(400);
    await owner.agent.post(`/v1/organization/${org.id}/role`).send({ name: 'R' }).expect(400);
    await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Viewer', permissions: [] })
      .expect(409);
    await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'R', permissions: [] })
      .expect(201);
    await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'r', permissions: [] })
      .expect(409);
  });

  it('refuses to change or delete built-in roles (409)', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    await owner.agent
      .put(`/v1/organization/${org.id}/role/${OWNER}`)
      .send({ name: 'Boss', permissions: [] })
      .expect(409);
    await owner.agent.delete(`/v1/organization/${org.id}/role/${OWNER}`).expect(409);
  });

  it('keeps roles to their organization: another one’s role is 404 here, 403 there', async () => {
    const a = await loggedInAgent(t);
    const b = await loggedInAgent(t);
    const orgA = await createOrg(a.agent);
    const orgB = await createOrg(b.agent);
    const roleB = await b.agent
      .post(`/v1/organization/${orgB.id}/role`)
      .send({ name: 'B role', permissions: [] })
      .expect(201);
    await a.agent
      .put(`/v1/organization/${orgA.id}/role/${roleB.body.id}`)
      .send({ name: 'x', permissions: [] })
      .expect(404);
    await a.agent.delete(`/v1/organization/${orgB.id}/role/${roleB.body.id}`).expect(403);
    await a.agent
      .post(`/v1/organization/${orgA.id}/member`)
      .send({ name: 'x', role: roleB.body.id })
      .expect(400);
  });

  it('Viewer may list roles but not write them', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    await viewer.agent.get(`/v1/organization/${org.id}/role`).expect(200);
    await viewer.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'R', permissions: [] })
      .expect(403);
  });
});
