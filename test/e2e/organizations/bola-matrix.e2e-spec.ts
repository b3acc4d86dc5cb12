import { listRoutes, RouteEntry } from '../../../src/common/http/route-table';
import { BUILT_IN_ROLES } from '../../../src/organizations/permissions/permissions';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

/**
 * Broken-object-level-authorization matrix. Walks the route table: every route addressed by an
 * organization or record id is called by an outsider with another organization's ids (must be
 * 403/404), and every write is called by a Viewer of that organization (must be 403 unless the
 * Viewer role holds the route's permission). A route with a path parameter this matrix cannot
 * fill fails the test, so new routes are covered as soon as they exist.
 */

/** Routes the spec opens to any logged-in user, with the reason. */
const OPEN_TO_ANY_USER: Record<string, string> = {
  'GET /v1/profile/:profile':
    'spec 4.5: reading a profile needs no permission beyond authentication',
};

const VIEWER = BUILT_IN_ROLES.find((r) => r.key === 'viewer')!;

describe('BOLA matrix over the route table', () => {
  let t: TestApp;
  let routes: RouteEntry[];
  let fixtures: Record<string, string>;
  let outsider: Awaited<ReturnType<typeof loggedInAgent>>;
  let viewer: Awaited<ReturnType<typeof memberAgent>>;

  beforeAll(async () => {
    t = await createTestApp();
    routes = listRoutes(t.app);
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Victim Inc.');
    const member = await owner.agent
      .post(`/v1/organization/${org.id}/member`)
      .send({ name: 'Holder' })
      .expect(201);
    const role = await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Custom', permissions: [] })
      .expect(201);
    viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    outsider = await loggedInAgent(t);
    await createOrg(outsider.agent, 'Attacker LLC');
    fixtures = {
      organization: org.id,
      member: member.body.id,
      role: role.body.id,
      entity: org.entity,
      address: org.address,
      id: org.address,
      profile: owner.user.profileId,
      user: owner.user.id,
      target: 'sidebar',
    };
  });
  afterAll(() => t.close());

  const fill = (route: RouteEntry) =>
    route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
      if (!(name in fixtures))
        throw new Error(
          `${route.method} ${route.path}: no fixture for :${name}; add one to the BOLA matrix`,
        );
      return fixtures[name];
    });

  const call = (agent: typeof outsider.agent, route: RouteEntry) => {
    const path = fill(route);
    // A body valid for as many routes as possible, so refusals come from access control, not validation.
    const body = {
      organization: fixtures.organization,
      name: 'x',
      type: 'a.b',
      description: 'x',
      metadata: {},
      user: fixtures.user,
      target: fixtures.target,
      color: '#112233',
      permissions: [],
      email: 'x@example.com',
      role: 'Viewer',
    };
    switch (route.method) {
      case 'GET':
        return agent.get(path);
      case 'DELETE':
        return agent.delete(path);
      case 'POST':
        return agent.post(path).send(body);
      case 'PUT':
        return agent.put(path).send(body);
      case 'PATCH':
        return agent.patch(path).send(body);
      default:
        throw new Error(`unexpected method ${route.method}`);
    }
  };

  const scoped = () =>
    routes.filter(
      (r) =>
        r.access?.kind !== 'public' &&
        !OPEN_TO_ANY_USER[`${r.method} ${r.path}`] &&
        (r.path.includes(':') || (r.access?.kind === 'permission' && r.access.target.body)),
    );

  it('covers every scoped route', () => {
    expect(scoped().length).toBeGreaterThan(10);
    for (const route of scoped()) expect(() => fill(route)).not.toThrow();
  });

  it('refuses an outsider on every route addressed by another organization’s ids', async () => {
    const leaks: string[] = [];
    for (const route of scoped()) {
      const res = await call(outsider.agent, route);
      if (![403, 404].includes(res.status))
        leaks.push(`${route.method} ${route.path} → ${res.status}`);
    }
    expect(leaks).toEqual([]);
  });

  it('refuses a Viewer every write that needs a permission the Viewer role lacks', async () => {
    const writes = routes.filter(
      (r) =>
        r.method !== 'GET' &&
        r.access?.kind === 'permission' &&
        !(VIEWER.permissions as readonly string[]).includes(r.access.permission),
    );
    expect(writes.length).toBeGreaterThan(5);
    const leaks: string[] = [];
    for (const route of writes) {
      const res = await call(viewer.agent, route);
      if (res.status !== 403) leaks.push(`${route.method} ${route.path} → ${res.status}`);
    }
    expect(leaks).toEqual([]);
  });
});
