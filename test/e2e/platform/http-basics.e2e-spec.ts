import { createTestApp, TestApp } from '../../support/app';

describe('HTTP basics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves /health outside /v1 with database and Redis up', async () => {
    const res = await t.http.get('/health').expect(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.info).toMatchObject({ database: { status: 'up' }, redis: { status: 'up' } });
  });

  it('answers an unknown route with 404 {error}', async () => {
    const res = await t.http.get('/v1/nothing-here').expect(404);
    expect(res.body).toEqual({ error: 'Not Found' });
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
