import { MACHINE_SECURITY, MachineKind } from '../../../src/common';
import { listRoutes } from '../../../src/common/http/route-table';
import { openApiDocument } from '../../../src/openapi';
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

  it('no machine caller’s route is @Public(): each is @Machine(kind), its credential in the document', async () => {
    const routes = listRoutes(t.app);
    const machine = Object.fromEntries(
      routes
        .filter((r) => r.access?.kind === 'machine')
        .map((r) => [`${r.method} ${r.path}`, (r.access as { machine: MachineKind }).machine]),
    );
    expect(machine).toEqual({
      'GET /api/v1/chat/team-mapping/:teamId': 'gatewayToken',
      'GET /api/v1/chat/user-mapping/:chatUserId': 'gatewayToken',
      'POST /v1/billing/webhook': 'billingSignature',
    });
    // Public means public: no credential of any kind in the document either.
    const doc = (await openApiDocument(t.app)) as unknown as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const wrong = routes.flatMap((r) => {
      const op = doc.paths[r.path.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
      if (!op || !r.access) return [];
      const expected =
        r.access.kind === 'public'
          ? []
          : r.access.kind === 'machine'
            ? MACHINE_SECURITY[r.access.machine].map((scheme) => ({ [scheme]: [] }))
            : [{ cookie: [] }];
      const security = op.security ?? [];
      return JSON.stringify(security) === JSON.stringify(expected)
        ? []
        : [`${r.method} ${r.path} (${r.access.kind}): ${JSON.stringify(security)}`];
    });
    expect(wrong).toEqual([]);
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
