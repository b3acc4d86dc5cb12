import type { Agent } from 'supertest';
import { createTestApp, TestApp } from '../../support/app';
import { createSecurity, issue } from '../../support/cap-table';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

/**
 * A write that changes nothing records no `.updated` event (issue 21), seen through the event
 * list. Share classes, grants and valuations have their own tests (securities, holdings-amend,
 * valuations); these are the other `.updated` types of the catalogue.
 */
describe('a write that changes nothing emits no .updated event', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const eventIds = async (agent: Agent, org: string) =>
    (
      (await agent.get(`/v1/organization/${org}/event`).expect(200)).body.data as {
        id: string;
        type: string;
      }[]
    ).map((e) => `${e.type} ${e.id}`);

  it('organization.updated, member.updated, role.updated, shareholding.updated, holding.updated (PUT)', async () => {
    const { agent } = await loggedInAgent(t);
    const org = await createOrg(agent, 'Steady Inc.');
    const member = await agent
      .post(`/v1/organization/${org.id}/member`)
      .send({ name: 'Holder', email: `holder-${Date.now()}@example.com`, title: 'CFO' })
      .expect(201);
    const role = await agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Auditor', permissions: ['canViewOrganization', 'canViewCapTable'] })
      .expect(201);
    const security = await createSecurity(agent, org.id);
    const held = await issue(agent, org.id, {
      member: member.body.id,
      security: security.id,
      quantity: 1000,
      pricePerShare: '0.5',
    });
    const safeTerms = {
      amount: '100000',
      safeType: 'post_money',
      valuationCap: '4000000',
      issueDate: '2024-01-01',
    };
    const safe = await agent
      .post('/v1/holding')
      .send({ organization: org.id, member: member.body.id, type: 'safe', ...safeTerms })
      .expect(201);
    const before = await eventIds(agent, org.id);

    await agent.patch(`/v1/organization/${org.id}`).send({ name: 'Steady Inc.' }).expect(200);
    await agent
      .patch(`/v1/organization/${org.id}/member/${member.body.id}`)
      .send({ title: 'CFO', role: member.body.role })
      .expect(200);
    // Permissions are a set: another order is no change, and the role keeps its own.
    const reordered = await agent
      .put(`/v1/organization/${org.id}/role/${role.body.id}`)
      .send({ name: 'Auditor', permissions: ['canViewCapTable', 'canViewOrganization'] })
      .expect(200);
    expect(reordered.body).toEqual(role.body);
    await agent.patch(`/v1/shareholding/${held.id}`).send({ quantity: '1000' }).expect(200);
    await agent
      .put(`/v1/shareholding/${held.id}`)
      .send({ quantity: '1000', issueDate: '2024-01-15', pricePerShare: '0.50' })
      .expect(200);
    // The SAFE's PATCH is tested with grants (holdings-amend); here its PUT.
    await agent
      .put(`/v1/holding/${safe.body.id}`)
      .send({ ...safeTerms, amount: '100000.00' })
      .expect(200);
    expect(await eventIds(agent, org.id)).toEqual(before);

    // The same writes with a change each do record their event.
    await agent.patch(`/v1/organization/${org.id}`).send({ name: 'Moved Inc.' }).expect(200);
    await agent
      .patch(`/v1/organization/${org.id}/member/${member.body.id}`)
      .send({ title: 'CEO' })
      .expect(200);
    await agent
      .put(`/v1/organization/${org.id}/role/${role.body.id}`)
      .send({ name: 'Auditor', permissions: ['canViewOrganization'] })
      .expect(200);
    await agent.patch(`/v1/shareholding/${held.id}`).send({ quantity: '1001' }).expect(200);
    const after = (await agent.get(`/v1/organization/${org.id}/event`).expect(200)).body.data as {
      type: string;
    }[];
    expect(after.slice(0, 4).map((e) => e.type)).toEqual([
      'shareholding.updated',
      'role.updated',
      'member.updated',
      'organization.updated',
    ]);
  });
});
