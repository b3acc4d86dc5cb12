import { listRoutes } from '../../../src/common/http/route-table';
import { createTestApp, TestApp } from '../../support/app';
import { ERROR_BODIES } from '../../support/errors';

describe('route table: deny by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('finds the routes of the app', () => {
    const routes = listRoutes(t.app);
    expect(routes).toEqual(
      expect.arrayContaining([expect.objectContaining({ method: 'GET', path: '/health' })]),
    );
  });

  it('every route declares @Public(), @Authenticated() or @Permission()', () => {
    const undeclared = listRoutes(t.app)
      .filter((r) => !r.access)
      .map((r) => `${r.method} ${r.path} (${r.controller}.${r.handler})`);
    expect(undeclared).toEqual([]);
  });

  it('every route lives under /v1, /api/v1 or is /health', () => {
    const stray = listRoutes(t.app)
      .map((r) => r.path)
      .filter((p) => !/^\/(v1|api\/v1)\//.test(p) && p !== '/health');
    expect(stray).toEqual([]);
  });
});

describe('a route that declares no access rule', () => {
  let t: TestApp;
  beforeAll(async () => {
    const { Controller, Get, Module } = await import('@nestjs/common');
    @Controller('v1/undeclared')
    class UndeclaredController {
      @Get()
      leak() {
        return { secret: true };
      }
    }
    @Module({ controllers: [UndeclaredController] })
    class UndeclaredModule {}
    t = await createTestApp({ imports: [UndeclaredModule] });
  });
  afterAll(() => t.close());

  it('is refused with 403 and flagged by the route walk', async () => {
    const res = await t.http.get('/v1/undeclared').expect(403);
    expect(res.body).toEqual(ERROR_BODIES[403]);
    expect(listRoutes(t.app).find((r) => r.path === '/v1/undeclared')?.access).toBeUndefined();
  });
});
