import { createTestApp, TestApp } from '../../support/app';
import { ERROR_BODIES } from '../../support/errors';
import { eventually } from '../../support/eventually';

describe('HTTP basics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves /health outside /v1 with database and Redis up', async () => {
    // The database ping gives up after 1.5 s, which a machine busy with the suite's other files
    // (cloning their databases) can exceed once; a health check that stays down still fails.
    const res = await eventually(
      async () => {
        const r = await t.http.get('/health');
        expect({ status: r.status, body: r.body as unknown }).toMatchObject({ status: 200 });
        return r;
      },
      15_000,
      500,
    );
    expect(res.body.status).toBe('ok');
    expect(res.body.info).toMatchObject({ database: { status: 'up' }, redis: { status: 'up' } });
  });

  it('answers an unknown route with 404 {error, key, message}', async () => {
    const res = await t.http.get('/v1/nothing-here').expect(404);
    expect(res.body).toEqual(ERROR_BODIES[404]);
  });

  it('answers every kind of failure in one shape: validation, domain, route, body parse', async () => {
    const { loggedInAgent } = await import('../../support/users');
    const { agent } = await loggedInAgent(t);
    const shape = { error: expect.any(String), message: expect.any(String) };
    const validation = await agent.post('/v1/organization').send({ name: 42 }).expect(400);
    expect(validation.body).toEqual({ error: 'Bad Request', message: 'name must be a string' });
    const domain = await agent
      .get('/v1/organization/6f1c1d1e-0000-4000-8000-000000000000')
      .expect(404);
    expect(domain.body).toEqual({ ...shape, key: 'resourceNotFound' });
    const route = await agent.delete('/v1/no/such/route').expect(404);
    expect(route.body).toEqual({ ...shape, key: 'resourceNotFound' });
    const parse = await agent
      .post('/v1/organization')
      .set('Content-Type', 'application/json')
      .send('{"name":')
      .expect(400);
    expect(parse.body).toEqual({
      error: 'Bad Request',
      message: 'the request body is not valid JSON',
    });
    for (const res of [validation, domain, route, parse]) {
      expect(JSON.stringify(res.body)).not.toMatch(/at \w+ \(|node_modules|SELECT/);
    }
  });

  it('echoes a caller X-Request-Id and makes one otherwise', async () => {
    const given = await t.http.get('/health').set('X-Request-Id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await t.http.get('/v1/nothing-here');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('replaces an unsafe X-Request-Id', async () => {
    const res = await t.http.get('/health').set('X-Request-Id', 'bad id\twith spaces');
    expect(res.headers['x-request-id']).not.toContain(' ');
  });

  it('renders malformed JSON as 400 {error, message}', async () => {
    const res = await t.http
      .post('/v1/nothing-here')
      .set('Content-Type', 'application/json')
      .send('{"broken":');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Bad Request');
    expect(typeof res.body.message).toBe('string');
  });

  it('refuses text with NUL characters (PostgreSQL cannot store them) with 400, storing nothing', async () => {
    const { loggedInAgent } = await import('../../support/users');
    const { agent } = await loggedInAgent(t);
    const res = await agent
      .post('/v1/organization')
      .set('Content-Type', 'application/json')
      .send('{"name":"Acme\\u0000 Inc."}')
      .expect(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: expect.stringMatching(/NUL/) });
    const list = await agent.get('/v1/organization').expect(200);
    expect(list.body).toEqual([]);
  });

  it('serves the OpenAPI document outside production', async () => {
    const res = await t.http.get('/docs-json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.paths['/health']).toBeDefined();
  });

  it('sets helmet headers and allows the frontend origin with credentials', async () => {
    const res = await t.http.get('/health').set('Origin', 'http://frontend.test');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['access-control-allow-origin']).toBe('http://frontend.test');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
  });
});

describe('unexpected errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    const { Controller, Get, Module } = await import('@nestjs/common');
    const { Public } = await import('../../../src/common/http/access.decorators');
    const { DataSource } = await import('typeorm');
    @Controller('v1/test-failures')
    class FailingController {
      constructor(private readonly dataSource: InstanceType<typeof DataSource>) {}
      @Get('throw')
      @Public()
      fail() {
        throw new Error('secret internal detail');
      }
      @Get('sql')
      @Public()
      sql() {
        return this.dataSource.query('SELECT * FROM table_that_does_not_exist_xyz');
      }
    }
    Reflect.defineMetadata('design:paramtypes', [DataSource], FailingController);
    @Module({ controllers: [FailingController] })
    class FailingModule {}
    t = await createTestApp({ imports: [FailingModule] });
  });
  afterAll(() => t.close());

  it('answers 500 {error} without the message, stack or SQL, and logs it with the request id', async () => {
    const written: string[] = [];
    const spy = jest
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: string | Uint8Array) => {
        written.push(chunk.toString());
        return true;
      });
    try {
      const res = await t.http.get('/v1/test-failures/throw').set('X-Request-Id', 'req-500-test');
      expect(res.status).toBe(500);
      // The same shape as every other error, with nothing of the failure in it.
      expect(res.body).toEqual({ error: 'Internal Server Error' });
      expect(res.headers['x-request-id']).toBe('req-500-test');
      const sql = await t.http.get('/v1/test-failures/sql');
      expect(sql.status).toBe(500);
      expect(JSON.stringify(sql.body)).not.toMatch(/table_that_does_not_exist|SELECT/);
    } finally {
      spy.mockRestore();
    }
    expect(written.join('')).toMatch(/req-500-test[\s\S]*secret internal detail/);
  });
});
