import { FakeSmtp } from '../../fakes/smtp';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent, registerUser } from '../../support/users';

/** The test helpers do what they claim: checked on the service's answers, not their own output. */
describe('test helpers', () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  beforeAll(async () => {
    t = await createTestApp({ mail: true });
    smtp = t.smtp;
  });
  afterAll(() => t.close());

  it('registerUser makes an account the service logs in as verified', async () => {
    const { email, password } = await registerUser(t);
    const res = await t.http.post('/v1/user/login').send({ email, password }).expect(200);
    expect(res.body.user).toMatchObject({ email, emailVerified: true, twoFactorEnabled: false });
  });

  it('registerUser with smtp verifies through the mailed code', async () => {
    const { email, password } = await registerUser(t, { smtp });
    const res = await t.http.post('/v1/user/login').send({ email, password }).expect(200);
    expect(res.body.user.emailVerified).toBe(true);
  });

  it('registerUser with unverified leaves the address unproven', async () => {
    const { email, password } = await registerUser(t, { unverified: true });
    const res = await t.http.post('/v1/user/login').send({ email, password }).expect(400);
    expect(res.body.key).toBe('emailNotVerified');
  });

  it('loggedInAgent holds the session of that user', async () => {
    const { agent, user } = await loggedInAgent(t);
    const res = await agent.get('/v1/user/session').expect(200);
    expect(res.body.user.id).toBe(user.id);
  });

  it('memberAgent gives an active member with the asked role', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    const list = await owner.agent.get(`/v1/organization/${org.id}/member`).expect(200);
    expect(list.body).toContainEqual(
      expect.objectContaining({
        id: viewer.member.id,
        user: viewer.user.id,
        status: 'active',
        role: '00000000-0000-4000-8000-000000000004',
      }),
    );
    await viewer.agent.get(`/v1/organization/${org.id}`).expect(200);
  });
});
