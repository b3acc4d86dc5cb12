import type { Agent } from 'supertest';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

/**
 * The dashboard's latestValuation (price, provider, report file) is for those who may read
 * valuations (canViewValuation), as the valuation routes are; everyone else who may view the
 * organization gets the rest of the dashboard with latestValuation null.
 */
describe('GET /v1/captable/:organization/dashboard: latestValuation needs canViewValuation', () => {
  let t: TestApp;
  let owner: Agent;
  let orgId: string;
  let valuation: Record<string, unknown>;
  beforeAll(async () => {
    t = await createTestApp();
    const login = await loggedInAgent(t);
    owner = login.agent;
    orgId = (await createOrg(owner, 'Valued Co')).id;
    const security = await createSecurity(owner, orgId);
    const holder = await createHolder(owner, orgId, 'Hanna Holder');
    await issue(owner, orgId, { member: holder.id, security: security.id, quantity: '1000' });
    valuation = (
      await owner
        .put('/v1/valuation')
        .send({
          organization: orgId,
          type: '409A',
          pricePerShare: '4.2',
          effectiveDate: '2024-03-01',
          provider: 'Secret Valuers LLP',
        })
        .expect(200)
    ).body;
  });
  afterAll(() => t.close());

  const dashboard = async (agent: Agent, asOf?: string) =>
    (
      await agent
        .get(`/v1/captable/${orgId}/dashboard`)
        .query(asOf ? { asOf } : {})
        .expect(200)
    ).body as { asOf: string; issued: string; latestValuation: unknown };

  const role = async (name: string, permissions: string[]) =>
    (await owner.post(`/v1/organization/${orgId}/role`).send({ name, permissions }).expect(201))
      .body.id as string;

  it('a Shareholder gets the dashboard without the valuation, today and asOf', async () => {
    const shareholder = await memberAgent(t, owner, orgId, 'Shareholder');
    for (const asOf of [undefined, '2024-06-30']) {
      const body = await dashboard(shareholder.agent, asOf);
      expect({ asOf, issued: body.issued, latestValuation: body.latestValuation }).toEqual({
        asOf,
        issued: '1000',
        latestValuation: null,
      });
    }
  });

  it('a custom role with canViewOrganization alone gets no valuation either', async () => {
    const looker = await memberAgent(
      t,
      owner,
      orgId,
      await role('Looker', ['canViewOrganization']),
    );
    for (const asOf of [undefined, '2024-06-30']) {
      expect({
        asOf,
        latestValuation: (await dashboard(looker.agent, asOf)).latestValuation,
      }).toEqual({ asOf, latestValuation: null });
    }
  });

  it('a Viewer, the Owner and a custom role with canViewValuation see it, today and asOf', async () => {
    const viewer = await memberAgent(t, owner, orgId, 'Viewer');
    const valuer = await memberAgent(
      t,
      owner,
      orgId,
      await role('Valuer', ['canViewOrganization', 'canViewValuation']),
    );
    for (const agent of [viewer.agent, valuer.agent, owner]) {
      expect((await dashboard(agent)).latestValuation).toEqual(valuation);
      expect((await dashboard(agent, '2024-06-30')).latestValuation).toEqual(valuation);
      // Before the valuation's date there is none, for anyone.
      expect((await dashboard(agent, '2024-02-01')).latestValuation).toBeNull();
    }
  });

  it('alternating callers with and without the permission each get their own answer', async () => {
    const shareholder = await memberAgent(t, owner, orgId, 'Shareholder');
    const viewer = await memberAgent(t, owner, orgId, 'Viewer');
    for (let i = 0; i < 2; i++) {
      expect((await dashboard(viewer.agent)).latestValuation).toEqual(valuation);
      expect((await dashboard(shareholder.agent)).latestValuation).toBeNull();
    }
  });
});
