import { randomUUID } from 'node:crypto';
import { createTestApp, TestApp } from '../../support/app';
import { loggedInAgent } from '../../support/users';
import { ERROR_BODIES } from '../../support/errors';

describe('/v1/user/:user/color', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const path = (user: string, target?: string) =>
    `/v1/user/${user}/color${target === undefined ? '' : `/${encodeURIComponent(target)}`}`;

  it('sets, lists, reads, replaces and deletes colors', async () => {
    const { agent, user } = await loggedInAgent(t);
    const target = randomUUID();
    const put = await agent
      .put(path(user.id, target))
      .send({ user: user.id, target, color: '#1A2B3C' })
      .expect(200);
    expect(put.body).toEqual({ user: user.id, target, color: '#1A2B3C' });
    await agent
      .put(path(user.id, 'sidebar'))
      .send({ user: user.id, target: 'sidebar', color: '#ffffff' })
      .expect(200);
    await agent
      .put(path(user.id, target))
      .send({ user: user.id, target, color: '#000000' })
      .expect(200);

    const list = await agent.get(path(user.id)).expect(200);
    // A plain JSON array of the resources, by target.
    expect(list.body).toEqual(
      [
        { user: user.id, target, color: '#000000' },
        { user: user.id, target: 'sidebar', color: '#ffffff' },
      ].sort((a, b) => (a.target < b.target ? -1 : 1)),
    );
    const one = await agent.get(path(user.id, 'sidebar')).expect(200);
    expect(one.body).toEqual({ user: user.id, target: 'sidebar', color: '#ffffff' });

    const del = await agent.delete(path(user.id, 'sidebar')).expect(200);
    expect(del.body).toEqual({ success: true });
    await agent.get(path(user.id, 'sidebar')).expect(404);
    expect((await agent.get(path(user.id)).expect(200)).body).toEqual([
      { user: user.id, target, color: '#000000' },
    ]);
  });

  it('answers 404 {error} for an unknown target (GET and DELETE)', async () => {
    const { agent, user } = await loggedInAgent(t);
    expect((await agent.get(path(user.id, 'nothing')).expect(404)).body).toEqual(ERROR_BODIES[404]);
    await agent.delete(path(user.id, 'nothing')).expect(404);
    expect((await agent.get(path(user.id)).expect(200)).body).toEqual([]);
  });

  it.each(['#12345', '123456', '#GGGGGG', 'red', '#1234567'])(
    'refuses the color %s with {error, message}',
    async (color) => {
      const { agent, user } = await loggedInAgent(t);
      const res = await agent
        .put(path(user.id, 'x'))
        .send({ user: user.id, target: 'x', color })
        .expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
    },
  );

  it('refuses a body whose user or target differs from the path (400)', async () => {
    const { agent, user } = await loggedInAgent(t);
    const other = randomUUID();
    let res = await agent
      .put(path(user.id, 'x'))
      .send({ user: other, target: 'x', color: '#000000' })
      .expect(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
    res = await agent
      .put(path(user.id, 'x'))
      .send({ user: user.id, target: 'y', color: '#000000' })
      .expect(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
  });

  it('refuses a :user that is not a UUID (400)', async () => {
    const { agent } = await loggedInAgent(t);
    await agent.get(path('not-a-uuid')).expect(400);
  });

  it("refuses another user's colors with 403 on every route", async () => {
    const owner = await loggedInAgent(t);
    const intruder = await loggedInAgent(t);
    const u = owner.user.id;
    await owner.agent
      .put(path(u, 'x'))
      .send({ user: u, target: 'x', color: '#000000' })
      .expect(200);
    expect((await intruder.agent.get(path(u)).expect(403)).body).toEqual(ERROR_BODIES[403]);
    await intruder.agent.get(path(u, 'x')).expect(403);
    await intruder.agent
      .put(path(u, 'x'))
      .send({ user: u, target: 'x', color: '#ffffff' })
      .expect(403);
    await intruder.agent.delete(path(u, 'x')).expect(403);
    expect((await owner.agent.get(path(u, 'x')).expect(200)).body).toEqual({
      user: u,
      target: 'x',
      color: '#000000',
    });
  });

  it('answers 401 without a session on every route', async () => {
    const u = randomUUID();
    await t.http.get(path(u)).expect(401);
    await t.http.get(path(u, 'x')).expect(401);
    await t.http.put(path(u, 'x')).send({ user: u, target: 'x', color: '#000000' }).expect(401);
    await t.http.delete(path(u, 'x')).expect(401);
  });

  it('refuses cross-site writes', async () => {
    const { agent, user } = await loggedInAgent(t);
    await agent
      .put(path(user.id, 'x'))
      .set('Sec-Fetch-Site', 'cross-site')
      .send({ user: user.id, target: 'x', color: '#000000' })
      .expect(403);
    await agent.delete(path(user.id, 'x')).set('Origin', 'https://evil.test').expect(403);
  });
});
