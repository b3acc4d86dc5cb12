import { listRoutes } from '../../../src/common/http/route-table';
import { createTestApp, TestApp } from '../../support/app';

const AUTH_ROUTES = [
  'POST /v1/user',
  'POST /v1/user/login',
  'POST /v1/user/logout',
  'GET /v1/user/session',
  'GET /v1/user/session/diagnostic',
  'POST /v1/user/email/verify',
  'POST /v1/user/email/verify/send',
  'POST /v1/user/password/reset',
  'PUT /v1/user/password',
  'GET /v1/user/2fa',
  'POST /v1/user/2fa',
  'POST /v1/user/2fa/verify',
  'POST /v1/user/idp-auth',
  'POST /v1/user/idp-auth/redirect',
  'GET /v1/user/state',
  'PATCH /v1/user/state',
  'PUT /v1/user/:user/color/:target',
  'GET /v1/user/:user/color',
  'GET /v1/user/:user/color/:target',
  'DELETE /v1/user/:user/color/:target',
];

describe('identity routes: registration and documentation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves every route of spec 4.1 with a declared access rule, and no magic-link route', () => {
    const routes = listRoutes(t.app);
    const served = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const route of AUTH_ROUTES) expect(served).toContain(route);
    for (const r of routes.filter((r) => r.path.startsWith('/v1/user')))
      expect(r.access).toBeDefined();
    expect([...served].filter((r) => r.includes('magic'))).toEqual([]);
  });

  it('documents each route in OpenAPI with a summary and its error statuses', async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    for (const route of AUTH_ROUTES) {
      const [method, path] = route.split(' ');
      const op = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      expect({ route, summary: op?.summary }).toEqual({ route, summary: expect.any(String) });
      const statuses = Object.keys(op.responses);
      expect({ route, errors: statuses.some((s) => s >= '400') }).toEqual({ route, errors: true });
    }
    const userSchema = doc.components.schemas.UserView;
    expect(Object.keys(userSchema.properties).sort()).toEqual([
      'created',
      'email',
      'emailVerified',
      'entityId',
      'id',
      'name',
      'profileId',
      'twoFactorEnabled',
    ]);
  });
});
