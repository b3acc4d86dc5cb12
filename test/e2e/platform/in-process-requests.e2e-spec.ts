import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { User } from '../../../src/auth/users/user.entity';
import { InProcessRequests, type InProcessRequest } from '../../../src/common';
import { createTestApp, TestApp } from '../../support/app';
import { ERROR_BODIES } from '../../support/errors';
import { createOrg } from '../../support/orgs';
import { sessionSetCookie } from '../../support/sessions';
import { loggedInAgent, randomIp } from '../../support/users';

describe('InProcessRequests: requests of the API run in process as the caller', () => {
  let t: TestApp;
  let requests: InProcessRequests;
  beforeAll(async () => {
    t = await createTestApp();
    requests = t.get(InProcessRequests);
  });
  afterAll(() => t.close());

  /** A logged-in user: an agent, and the `Cookie` header of a session of their own. */
  async function user() {
    const login = await loggedInAgent(t);
    const res = await t.http
      .post('/v1/user/login')
      .send({ email: login.email, password: login.password })
      .expect(200);
    const cookie = sessionSetCookie(res)!.split(';')[0];
    return { ...login, cookie };
  }

  /** The parts of an Express request the service reads: its headers, id and IP. */
  const callerOf = (cookie: string, more: { id?: string; ip?: string } = {}) =>
    ({
      get: (name: string) => (name.toLowerCase() === 'cookie' ? cookie : undefined),
      ...more,
    }) as unknown as Request;

  /** What the same request answers over HTTP with that cookie. */
  async function overHttp(cookie: string, request: InProcessRequest) {
    const method = request.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    let req = t.http[method](request.url).set('Cookie', cookie);
    if (request.body !== undefined) req = req.send(request.body as object);
    const res = await req;
    return { status: res.status, body: res.text ? (res.body as unknown) : null };
  }

  let owner: Awaited<ReturnType<typeof user>>;
  let org: { id: string };
  beforeAll(async () => {
    owner = await user();
    org = await createOrg(owner.agent, 'In Process Co');
  });

  it('runs POST, PUT, PATCH, GET and DELETE as the caller, with their answers', async () => {
    const caller = callerOf(owner.cookie);
    const roles = `/v1/organization/${org.id}/role`;

    const created = await requests.call(caller, {
      method: 'POST',
      url: roles,
      body: { name: 'Auditor', permissions: ['canViewOrganization'] },
    });
    expect(created).toMatchObject({
      status: 201,
      body: {
        id: expect.any(String),
        name: 'Auditor',
        builtIn: false,
        organization: org.id,
        permissions: ['canViewOrganization'],
      },
    });
    expect(created.headers['content-type']).toMatch(/^application\/json/);
    expect(created.bytes).toBe(Number(created.headers['content-length']));
    const id = (created.body as { id: string }).id;

    const replaced = await requests.call(caller, {
      method: 'PUT',
      url: `${roles}/${id}`,
      body: { name: 'Auditor', permissions: ['canViewOrganization', 'canEditOrganization'] },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      permissions: ['canViewOrganization', 'canEditOrganization'],
    });

    const renamed = await requests.call(caller, {
      method: 'PATCH',
      url: `/v1/organization/${org.id}`,
      body: { name: 'Renamed In Process' },
    });
    expect(renamed).toMatchObject({
      status: 200,
      body: { id: org.id, name: 'Renamed In Process' },
    });

    const read = await requests.call(caller, { method: 'GET', url: `${roles}/${id}` });
    expect(read).toMatchObject({ status: 200, body: replaced.body });

    const deleted = await requests.call(caller, { method: 'DELETE', url: `${roles}/${id}` });
    expect(deleted).toMatchObject({ status: 200, body: {} });
    const gone = await requests.call(caller, { method: 'GET', url: `${roles}/${id}` });
    expect(gone).toMatchObject({ status: 404, body: ERROR_BODIES[404] });

    // The writes are the app's own: HTTP sees them, and real requests still work afterwards
    // (light-my-request left Express's shared prototypes alone).
    const organization = await owner.agent.get(`/v1/organization/${org.id}`).expect(200);
    expect(organization.body.name).toBe('Renamed In Process');
    await owner.agent.get(`${roles}/${id}`).expect(404);
    await owner.agent
      .post(roles)
      .send({ name: 'Over HTTP', permissions: [] })
      .expect(201)
      .expect('Content-Type', /json/);
  });

  it('answers 401 without a valid session, as over HTTP', async () => {
    const request: InProcessRequest = {
      method: 'POST',
      url: `/v1/organization/${org.id}/role`,
      body: { name: 'Nobody', permissions: [] },
    };
    for (const cookie of ['', 'connect.sid=s%3Anot-a-session.bad-signature']) {
      const answer = await requests.call(callerOf(cookie), request);
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 401,
        body: ERROR_BODIES[401],
      });
      expect({ status: answer.status, body: answer.body }).toEqual(await overHttp(cookie, request));
    }
  });

  it('refuses another user’s organization as over HTTP (403/404)', async () => {
    const outsider = await user();
    const attempts: InProcessRequest[] = [
      { method: 'GET', url: `/v1/organization/${org.id}/role` },
      {
        method: 'POST',
        url: `/v1/organization/${org.id}/role`,
        body: { name: 'Intruder', permissions: [] },
      },
      { method: 'PATCH', url: `/v1/organization/${org.id}`, body: { name: 'Taken over' } },
      { method: 'DELETE', url: `/v1/organization/${org.id}` },
    ];
    for (const request of attempts) {
      const answer = await requests.call(callerOf(outsider.cookie), request);
      expect([403, 404]).toContain(answer.status);
      expect(answer.body).toEqual(ERROR_BODIES[answer.status as 403 | 404]);
      expect({ status: answer.status, body: answer.body }).toEqual(
        await overHttp(outsider.cookie, request),
      );
    }
    const untouched = await owner.agent.get(`/v1/organization/${org.id}/role`).expect(200);
    expect(untouched.body.map((r: { name: string }) => r.name)).not.toContain('Intruder');
  });

  it('answers a body failing validation 400 with the app’s error body', async () => {
    const request: InProcessRequest = {
      method: 'POST',
      url: `/v1/organization/${org.id}/role`,
      body: { name: 42, permissions: [] },
    };
    const answer = await requests.call(callerOf(owner.cookie), request);
    expect(answer).toMatchObject({
      status: 400,
      body: { error: 'Bad Request', message: 'name must be a string' },
    });
    expect({ status: answer.status, body: answer.body }).toEqual(
      await overHttp(owner.cookie, request),
    );
  });

  it('keeps the caller’s identity and request id; `headers` cannot replace the session', async () => {
    const other = await user();
    const mine = await requests.call(callerOf(owner.cookie, { id: 'agent-step-1' }), {
      method: 'GET',
      url: '/v1/organization',
      headers: { Cookie: other.cookie, 'X-Request-Id': 'spoofed' },
    });
    expect(mine.status).toBe(200);
    expect((mine.body as { id: string }[]).map((o) => o.id)).toContain(org.id);
    expect(mine.headers['x-request-id']).toBe('agent-step-1');
  });

  it('runs as a session given by its cookie alone (callAs)', async () => {
    const answer = await requests.callAs(
      { cookie: owner.cookie },
      { method: 'GET', url: `/v1/organization/${org.id}` },
    );
    expect(answer).toMatchObject({ status: 200, body: { id: org.id } });
    const none = await requests.callAs(
      { cookie: '' },
      { method: 'GET', url: `/v1/organization/${org.id}` },
    );
    expect(none).toMatchObject({ status: 401, body: ERROR_BODIES[401] });
  });

  it('runs from the caller’s IP', async () => {
    const ip = randomIp();
    const email = `in-process-${Date.now()}@example.test`;
    const answer = await requests.call(callerOf('', { ip }), {
      method: 'POST',
      url: '/v1/user',
      body: { email, password: 'Ledgerline-in-process-1', name: 'In Process' },
    });
    expect(answer.status).toBe(201);
    const stored = await t
      .get<DataSource>(DataSource)
      .getRepository(User)
      .findOneByOrFail({ email });
    expect(stored.registrationIp).toBe(ip);
  });

  it('passes the request’s own headers, and answers an empty body as null', async () => {
    const members = `/v1/organization/${org.id}/member`;
    const first = await requests.call(callerOf(owner.cookie), { method: 'GET', url: members });
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toEqual(expect.any(String));
    const again = await requests.call(callerOf(owner.cookie), {
      method: 'GET',
      url: members,
      headers: { 'If-None-Match': etag },
    });
    expect(again).toMatchObject({ status: 304, body: null, bytes: 0 });
  });
});
