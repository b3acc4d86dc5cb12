import { randomUUID } from 'node:crypto';
import { ListResponder } from '../../../src/common';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../../support/app';
import { createSecurity, issue } from '../../support/cap-table';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent, logIn } from '../../support/users';

/**
 * The versioned list cache is correct by construction: its key holds the versions of the data,
 * bumped in the transaction of every write and read with the access decision on every request.
 */
describe('versioned list cache', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const redisPrefix = `lltest:cache:${randomUUID().slice(0, 8)}:`;
  beforeAll(async () => {
    database = await createTestDatabase();
    // Two instances of the service on one database and one Redis, like two pods.
    a = await createTestApp({ database, redisPrefix });
    b = await createTestApp({ database, redisPrefix });
  });
  afterAll(async () => {
    await b.close({ keepData: true });
    await a.close();
  });

  const members = (org: string) => `/v1/organization/${org}/member`;

  it('answers with a strong ETag, 304 for If-None-Match, until the data changes', async () => {
    const owner = await loggedInAgent(a);
    const org = await createOrg(owner.agent);
    const first = await owner.agent.get(members(org.id)).expect(200);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await owner.agent.get(members(org.id)).set('If-None-Match', etag).expect(304);
    expect(again.text).toBe('');
    await owner.agent.post(members(org.id)).send({ name: 'New Holder' }).expect(201);
    const changed = await owner.agent.get(members(org.id)).set('If-None-Match', etag).expect(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body.map((m: { name: string }) => m.name)).toContain('New Holder');
  });

  it('shows a write made on one instance to the next read on the other', async () => {
    const owner = await loggedInAgent(a);
    const onB = await logIn(b, owner.email, owner.password);
    const org = await createOrg(owner.agent);
    // Both instances have the list cached.
    const before = await onB.get(members(org.id)).expect(200);
    await owner.agent.get(members(org.id)).expect(200);
    await owner.agent.post(members(org.id)).send({ name: 'Written on A' }).expect(201);
    const after = await onB.get(members(org.id)).expect(200);
    expect(after.body).toHaveLength(before.body.length + 1);
    expect(after.body.map((m: { name: string }) => m.name)).toContain('Written on A');
    const renamed = after.body.find((m: { name: string }) => m.name === 'Written on A');
    await onB
      .patch(`${members(org.id)}/${renamed.id}`)
      .send({ name: 'Renamed on B' })
      .expect(200);
    const onA = await owner.agent.get(members(org.id)).expect(200);
    expect(onA.body.map((m: { name: string }) => m.name)).toContain('Renamed on B');
  });

  it('refuses a removed member on the very next request, on either instance', async () => {
    const owner = await loggedInAgent(a);
    const org = await createOrg(owner.agent);
    const viewer = await memberAgent(a, owner.agent, org.id, 'Viewer');
    const viewerOnB = await logIn(b, viewer.email, viewer.password);
    await viewer.agent.get(members(org.id)).expect(200);
    const cached = await viewerOnB.get(members(org.id)).expect(200);
    await owner.agent.delete(`${members(org.id)}/${viewer.member.id}`).expect(200);
    await viewer.agent.get(members(org.id)).expect(403);
    await viewerOnB.get(members(org.id)).set('If-None-Match', cached.headers.etag).expect(403);
  });

  it('never answers a self-scoped list from another caller’s entry', async () => {
    const owner = await loggedInAgent(a);
    const org = await createOrg(owner.agent);
    const first = await memberAgent(a, owner.agent, org.id, 'Shareholder');
    const second = await memberAgent(a, owner.agent, org.id, 'Shareholder');
    const mine = await first.agent.get(members(org.id)).expect(200);
    const theirs = await second.agent.get(members(org.id)).expect(200);
    expect(mine.body.map((m: { id: string }) => m.id)).toEqual([first.member.id]);
    expect(theirs.body.map((m: { id: string }) => m.id)).toEqual([second.member.id]);
    expect(theirs.headers.etag).not.toBe(mine.headers.etag);
    // Another caller's ETag does not unlock a 304 either.
    const probe = await second.agent.get(members(org.id)).set('If-None-Match', mine.headers.etag);
    expect(probe.status).toBe(200);
    expect(probe.body.map((m: { id: string }) => m.id)).toEqual([second.member.id]);
    const all = await owner.agent.get(members(org.id)).expect(200);
    expect(all.body).toHaveLength(3);
  });
});

/**
 * Conditional reads of `@CachedList` routes are answered before the framework's routing when the
 * caller's copy is current; everything else is the route's to answer. `ListResponder.send` runs
 * only on the route's own path, so a spy on it tells which of the two answered.
 */
describe('conditional-read shortcut', () => {
  let t: TestApp;
  let send: jest.SpyInstance;
  beforeAll(async () => {
    t = await createTestApp();
    send = jest.spyOn(t.get<ListResponder>(ListResponder), 'send');
  });
  afterAll(() => t.close());
  beforeEach(() => send.mockClear());

  const members = (org: string) => `/v1/organization/${org}/member`;

  it('answers 304 itself, with the headers every answer carries and the renewed session', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const first = await owner.agent.get(members(org.id)).expect(200);
    expect(send).toHaveBeenCalledTimes(1);
    const again = await owner.agent
      .get(members(org.id))
      .set('If-None-Match', first.headers.etag)
      .expect(304);
    expect(send).toHaveBeenCalledTimes(1);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    expect(again.headers['x-request-id']).toBeDefined();
    expect(again.headers['x-content-type-options']).toBe('nosniff');
    // The rolling session: a 304 renews the cookie like any answer.
    expect(String(again.headers['set-cookie'])).toMatch(/^connect\.sid=/);
    // With a trailing slash, as the route itself matches.
    await owner.agent
      .get(`${members(org.id)}/`)
      .set('If-None-Match', first.headers.etag)
      .expect(304);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('steps aside for the route to refuse: no session, another organization, a removed member', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    const etag = (await viewer.agent.get(members(org.id)).expect(200)).headers.etag;
    await t.http.get(members(org.id)).set('If-None-Match', etag).expect(401);
    const stranger = await loggedInAgent(t);
    await stranger.agent.get(members(org.id)).set('If-None-Match', etag).expect(403);
    await stranger.agent.get(members(randomUUID())).set('If-None-Match', etag).expect(404);
    await owner.agent.delete(`${members(org.id)}/${viewer.member.id}`).expect(200);
    await viewer.agent.get(members(org.id)).set('If-None-Match', etag).expect(403);
    await owner.agent.get(members('not-a-uuid')).set('If-None-Match', etag).expect(400);
  });

  it('serves the shareholding list by query string, and leaves unknown parameters to the route', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const security = await createSecurity(owner.agent, org.id);
    const holder = await owner.agent.post(members(org.id)).send({ name: 'Ada Holder' }).expect(201);
    await issue(owner.agent, org.id, {
      member: holder.body.id,
      security: security.id,
      quantity: 10,
    });
    const path = `/v1/organization/${org.id}/shareholding`;
    const limited = await owner.agent.get(`${path}?limit=5`).expect(200);
    const all = await owner.agent.get(path).expect(200);
    expect(limited.headers.etag).not.toBe(all.headers.etag);
    send.mockClear();
    await owner.agent.get(`${path}?limit=5`).set('If-None-Match', limited.headers.etag).expect(304);
    expect(send).not.toHaveBeenCalled();
    // Another query string is another list.
    await owner.agent.get(path).set('If-None-Match', limited.headers.etag).expect(200);
    const unknown = await owner.agent
      .get(`${path}?limit=5&colour=red`)
      .set('If-None-Match', limited.headers.etag)
      .expect(400);
    expect(unknown.body.message).toContain('"colour"');
    // A write changes the list: the old ETag gets the new list from the route.
    await issue(owner.agent, org.id, {
      member: holder.body.id,
      security: security.id,
      quantity: 5,
    });
    const changed = await owner.agent
      .get(`${path}?limit=5`)
      .set('If-None-Match', limited.headers.etag)
      .expect(200);
    expect(changed.body).toHaveLength(2);
  });
});

describe('LIST_CACHE=off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LIST_CACHE: 'off' } });
  });
  afterAll(() => t.close());

  it('computes lists every time, without ETags', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const res = await owner.agent.get(`/v1/organization/${org.id}/member`).expect(200);
    expect(res.headers.etag).toBeUndefined();
    expect(res.body).toHaveLength(1);
    // Nothing answers 304 then, whatever the request claims to hold.
    await owner.agent
      .get(`/v1/organization/${org.id}/member`)
      .set('If-None-Match', '"anything"')
      .expect(200);
  });
});
