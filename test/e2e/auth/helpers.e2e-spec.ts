import { FakeSmtp } from '../../fakes/smtp';
import { createTestApp, TestApp } from '../../support/app';
import { loggedInAgent, registerUser } from '../../support/users';

describe('test helpers: registerUser and loggedInAgent', () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  beforeAll(async () => {
    t = await createTestApp({ mail: true });
    smtp = t.smtp;
  });
  afterAll(() => t.close());

  it('registers a verified user in the database without reading mail', async () => {
    const { user, email, password } = await registerUser(t);
    expect(user).toEqual({
      id: expect.any(String),
      email,
      name: expect.any(String),
      emailVerified: true,
      twoFactorEnabled: false,
      entityId: expect.any(String),
      profileId: expect.any(String),
      created: expect.any(String),
    });
    expect(password.length).toBeGreaterThanOrEqual(8);
  });

  it('registers a user verified with the mailed code', async () => {
    const { user } = await registerUser(t, { smtp });
    expect(user.emailVerified).toBe(true);
  });

  it('gives an agent with a session', async () => {
    const { agent, user } = await loggedInAgent(t);
    const res = await agent.get('/v1/user/session').expect(200);
    expect(res.body).toEqual({ user: expect.objectContaining({ id: user.id }) });
  });
});
