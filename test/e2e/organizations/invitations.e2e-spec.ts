import { FakeSmtp } from '../../fakes/smtp';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

const EDITOR = '00000000-0000-4000-8000-000000000003';
const tokenOf = (text: string) => /Invitation token: (\S+)/.exec(text)?.[1] ?? '';

/** The next invitation mail to `email` (registration mails its verification code first). */
async function nextInvitation(smtp: FakeSmtp, email: string) {
  for (;;) {
    const mail = await smtp.nextMail(email);
    if (/invited/i.test(mail.subject)) return mail;
  }
}

describe('invitations', () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  beforeAll(async () => {
    t = await createTestApp({ mail: true });
    smtp = t.smtp;
  });
  afterAll(() => t.close());

  it('mails a single-use token that makes the logged-in invitee an active member', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Invite Co');
    const invitee = await loggedInAgent(t);
    const invited = await owner.agent
      .post(`/v1/organization/${org.id}/member/invite`)
      .send({ email: invitee.email.toUpperCase(), role: 'Editor', message: 'Welcome aboard' })
      .expect(201);
    expect(invited.body).toMatchObject({
      email: invitee.email,
      status: 'invited',
      role: EDITOR,
      user: null,
    });
    const mail = await nextInvitation(smtp, invitee.email);
    expect(mail.subject).toContain('Invite Co');
    expect(mail.text).toContain('Welcome aboard');
    const token = tokenOf(mail.text);
    expect(token.length).toBeGreaterThan(30);

    await invitee.agent.get(`/v1/organization/${org.id}`).expect(403);
    const accepted = await invitee.agent
      .post('/v1/organization/invitation/accept')
      .send({ token })
      .expect(200);
    expect(accepted.body).toMatchObject({
      id: invited.body.id,
      user: invitee.user.id,
      status: 'active',
      role: EDITOR,
    });
    await invitee.agent.get(`/v1/organization/${org.id}`).expect(200);
    await invitee.agent.post('/v1/organization/invitation/accept').send({ token }).expect(409);
  });

  it('refuses a token for another address (403), an unknown token (400) and no session (401)', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const invitee = await loggedInAgent(t);
    const stranger = await loggedInAgent(t);
    await owner.agent
      .post(`/v1/organization/${org.id}/member/invite`)
      .send({ email: invitee.email, role: 'Viewer' })
      .expect(201);
    const token = tokenOf((await nextInvitation(smtp, invitee.email)).text);
    await stranger.agent.post('/v1/organization/invitation/accept').send({ token }).expect(403);
    await invitee.agent
      .post('/v1/organization/invitation/accept')
      .send({ token: 'x'.repeat(43) })
      .expect(400);
    await invitee.agent.post('/v1/organization/invitation/accept').send({}).expect(400);
    await t.http.post('/v1/organization/invitation/accept').send({ token }).expect(401);
  });

  it('replaces an earlier invitation: only the newest token works', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const invitee = await loggedInAgent(t);
    await owner.agent
      .post(`/v1/organization/${org.id}/member/invite`)
      .send({ email: invitee.email, role: 'Viewer' })
      .expect(201);
    const first = tokenOf((await nextInvitation(smtp, invitee.email)).text);
    await owner.agent
      .post(`/v1/organization/${org.id}/member/invite`)
      .send({ email: invitee.email, role: 'Viewer' })
      .expect(201);
    const second = tokenOf((await nextInvitation(smtp, invitee.email)).text);
    await invitee.agent
      .post('/v1/organization/invitation/accept')
      .send({ token: first })
      .expect(400);
    await invitee.agent
      .post('/v1/organization/invitation/accept')
      .send({ token: second })
      .expect(200);
  });

  it('validates input, refuses an existing member (409) and needs canEditOrganization', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    await owner.agent
      .post(`/v1/organization/${org.id}/member/invite`)
      .send({ email: 'nope', role: 'Viewer' })
      .expect(400);
    await owner.agent
      .post(`/v1/organization/${org.id}/member/invite`)
      .send({ email: 'a@example.com' })
      .expect(400);
    await owner.agent
      .post(`/v1/organization/${org.id}/member/invite`)
      .send({ email: viewer.email, role: 'Viewer' })
      .expect(409);
    await viewer.agent
      .post(`/v1/organization/${org.id}/member/invite`)
      .send({ email: 'b@example.com', role: 'Viewer' })
      .expect(403);
    await t.http
      .post(`/v1/organization/${org.id}/member/invite`)
      .send({ email: 'b@example.com', role: 'Viewer' })
      .expect(401);
  });
});

describe('GET /v1/user/invitations, accept and decline from the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists the open invitations to the caller’s address, newest first, with what they offer', async () => {
    const owner = await loggedInAgent(t);
    const first = await createOrg(owner.agent, 'First Co');
    const second = await createOrg(owner.agent, 'Second Co');
    const invitee = await loggedInAgent(t);
    await owner.agent
      .post(`/v1/organization/${first.id}/member/invite`)
      .send({ email: invitee.email, role: 'Editor', message: 'Join us' })
      .expect(201);
    await owner.agent
      .post(`/v1/organization/${second.id}/member/invite`)
      .send({ email: invitee.email, role: 'Viewer' })
      .expect(201);
    const res = await invitee.agent.get('/v1/user/invitations').expect(200);
    expect(res.body).toEqual([
      {
        id: expect.any(String),
        organization: { id: second.id, name: 'Second Co' },
        role: { id: '00000000-0000-4000-8000-000000000004', name: 'Viewer' },
        message: null,
        invitedBy: owner.user.id,
        expiresAt: expect.any(String),
        created: expect.any(String),
      },
      expect.objectContaining({
        organization: { id: first.id, name: 'First Co' },
        role: { id: EDITOR, name: 'Editor' },
        message: 'Join us',
      }),
    ]);
    // Nobody else sees them.
    const stranger = await loggedInAgent(t);
    expect((await stranger.agent.get('/v1/user/invitations').expect(200)).body).toEqual([]);
    await t.http.get('/v1/user/invitations').expect(401);
  });

  it('accepts one by id: the caller becomes an active member; it leaves the list', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const invitee = await loggedInAgent(t);
    await owner.agent
      .post(`/v1/organization/${org.id}/member/invite`)
      .send({ email: invitee.email, role: 'Editor' })
      .expect(201);
    const [invitation] = (await invitee.agent.get('/v1/user/invitations').expect(200)).body;
    const stranger = await loggedInAgent(t);
    await stranger.agent.post(`/v1/user/invitations/${invitation.id}/accept`).expect(404);
    await stranger.agent.post(`/v1/user/invitations/${invitation.id}/decline`).expect(404);
    const res = await invitee.agent
      .post(`/v1/user/invitations/${invitation.id}/accept`)
      .expect(200);
    expect(res.body).toMatchObject({ user: invitee.user.id, status: 'active', role: EDITOR });
    await invitee.agent.get(`/v1/organization/${org.id}/member`).expect(200);
    expect((await invitee.agent.get('/v1/user/invitations').expect(200)).body).toEqual([]);
    await invitee.agent.post(`/v1/user/invitations/${invitation.id}/accept`).expect(404);
    await invitee.agent.post('/v1/user/invitations/not-a-uuid/accept').expect(400);
  });

  it('declines one: the invited member record goes, no access is given', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const invitee = await loggedInAgent(t);
    const invited = await owner.agent
      .post(`/v1/organization/${org.id}/member/invite`)
      .send({ email: invitee.email, role: 'Viewer' })
      .expect(201);
    const [invitation] = (await invitee.agent.get('/v1/user/invitations').expect(200)).body;
    const declined = await invitee.agent
      .post(`/v1/user/invitations/${invitation.id}/decline`)
      .expect(200);
    expect(declined.body).toEqual({});
    await invitee.agent.get(`/v1/organization/${org.id}`).expect(403);
    await invitee.agent.post(`/v1/user/invitations/${invitation.id}/accept`).expect(404);
    const members = (await owner.agent.get(`/v1/organization/${org.id}/member`).expect(200)).body;
    expect(members.map((m: { id: string }) => m.id)).not.toContain(invited.body.id);
  });
});
