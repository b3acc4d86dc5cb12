import { createTestApp, TestApp } from '../../support/app';
import { loggedInAgent } from '../../support/users';
import { ERROR_BODIES } from '../../support/errors';

describe('GET/PATCH /v1/user/state', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('starts empty', async () => {
    const { agent } = await loggedInAgent(t);
    const res = await agent.get('/v1/user/state').expect(200);
    expect(res.body).toEqual({ state: { completedSteps: [], preferences: {} } });
  });

  it('replaces completedSteps (deduplicated) and merges preferences key by key', async () => {
    const { agent } = await loggedInAgent(t);
    let res = await agent
      .patch('/v1/user/state')
      .send({ completedSteps: ['welcome', 'profile', 'welcome'], preferences: { theme: 'dark' } })
      .expect(200);
    expect(res.body).toEqual({
      state: { completedSteps: ['welcome', 'profile'], preferences: { theme: 'dark' } },
    });
    res = await agent
      .patch('/v1/user/state')
      .send({ preferences: { dashboardLayout: 'grid' } })
      .expect(200);
    expect(res.body.state).toEqual({
      completedSteps: ['welcome', 'profile'],
      preferences: { theme: 'dark', dashboardLayout: 'grid' },
    });
    res = await agent
      .patch('/v1/user/state')
      .send({ completedSteps: ['billing'], preferences: { theme: 'light' } })
      .expect(200);
    expect(res.body.state).toEqual({
      completedSteps: ['billing'],
      preferences: { theme: 'light', dashboardLayout: 'grid' },
    });
    expect((await agent.get('/v1/user/state').expect(200)).body).toEqual(res.body);
  });

  it('keeps each user to their own state', async () => {
    const a = await loggedInAgent(t);
    const b = await loggedInAgent(t);
    await a.agent
      .patch('/v1/user/state')
      .send({ preferences: { theme: 'dark' } })
      .expect(200);
    expect((await b.agent.get('/v1/user/state').expect(200)).body.state.preferences).toEqual({});
  });

  it.each([
    ['a non-string preference value', { preferences: { theme: 3 } }],
    ['a null preference value', { preferences: { theme: null } }],
    ['preferences that are an array', { preferences: ['dark'] }],
    ['completedSteps that are not strings', { completedSteps: [1, 2] }],
    ['completedSteps that are not an array', { completedSteps: 'welcome' }],
  ])('refuses %s with {error, message}', async (_, body) => {
    const { agent } = await loggedInAgent(t);
    const res = await agent.patch('/v1/user/state').send(body).expect(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
  });

  it('answers 401 without a session', async () => {
    expect((await t.http.get('/v1/user/state').expect(401)).body).toEqual(ERROR_BODIES[401]);
    await t.http.patch('/v1/user/state').send({ completedSteps: [] }).expect(401);
  });

  it('refuses a cross-site PATCH', async () => {
    const { agent } = await loggedInAgent(t);
    await agent
      .patch('/v1/user/state')
      .set('Sec-Fetch-Site', 'cross-site')
      .send({ completedSteps: [] })
      .expect(403);
  });
});
