import { createTestApp, TestApp } from '../../support/app';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

const csv = (text: string) => Buffer.from(text, 'utf8');

describe('POST /v1/organization/member/upload', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates every row of a good file', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const res = await owner.agent
      .post('/v1/organization/member/upload')
      .field('organization', org.id)
      .attach(
        'file',
        csv(
          'name,email,role,title\nAda,ada@example.com,Viewer,CTO\nBob,,,\n,carol@example.com,Shareholder,\n',
        ),
        'members.csv',
      )
      .expect(201);
    expect(res.body).toHaveLength(3);
    expect(res.body[0]).toMatchObject({
      name: 'Ada',
      email: 'ada@example.com',
      title: 'CTO',
      role: '00000000-0000-4000-8000-000000000004',
    });
    const list = await owner.agent.get(`/v1/organization/${org.id}/member`).expect(200);
    expect(list.body).toHaveLength(4);
  });

  it('creates nothing when any row is bad, and names each bad row and column', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    await owner.agent
      .post(`/v1/organization/${org.id}/member`)
      .send({ email: 'taken@example.com' })
      .expect(201);
    const res = await owner.agent
      .post('/v1/organization/member/upload')
      .field('organization', org.id)
      .attach(
        'file',
        csv(
          'name,email,role\nGood,good@example.com,Viewer\n,,\nX,not-an-email,\nY,taken@example.com,\nZ,z@example.com,Pharaoh\nW,good@example.com,\n',
        ),
        'm.csv',
      )
      .expect(400);
    expect(res.body.error).toBe('Bad Request');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { row: 3, column: 'name', reason: 'name or email is required' },
        { row: 4, column: 'email', reason: 'not a valid e-mail address' },
        { row: 7, column: 'email', reason: 'duplicate of row 2' },
      ]),
    );
    const list = await owner.agent.get(`/v1/organization/${org.id}/member`).expect(200);
    expect(list.body).toHaveLength(2);

    const second = await owner.agent
      .post('/v1/organization/member/upload')
      .field('organization', org.id)
      .attach(
        'file',
        csv('name,email,role\nY,taken@example.com,\nZ,z@example.com,Pharaoh\n'),
        'm.csv',
      )
      .expect(400);
    expect(second.body.errors).toEqual([
      { row: 2, column: 'email', reason: 'taken@example.com is already a member' },
      { row: 3, column: 'role', reason: expect.stringContaining('Pharaoh') },
    ]);
  });

  it('answers missingFileArgument, unsupportedFileExtension and bad CSV headers with 400', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const none = await owner.agent
      .post('/v1/organization/member/upload')
      .field('organization', org.id)
      .expect(400);
    expect(none.body.key).toBe('missingFileArgument');
    const pdf = await owner.agent
      .post('/v1/organization/member/upload')
      .field('organization', org.id)
      .attach('file', csv('%PDF'), 'm.pdf')
      .expect(400);
    expect(pdf.body.key).toBe('unsupportedFileExtension');
    await owner.agent
      .post('/v1/organization/member/upload')
      .field('organization', org.id)
      .attach('file', csv('shoe,size\n1,2\n'), 'm.csv')
      .expect(400);
  });

  it('needs a session, an organization, and canEditOrganization in it', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    const outsider = await loggedInAgent(t);
    const file = csv('name\nA\n');
    await t.http
      .post('/v1/organization/member/upload')
      .field('organization', org.id)
      .attach('file', file, 'm.csv')
      .expect(401);
    await viewer.agent
      .post('/v1/organization/member/upload')
      .field('organization', org.id)
      .attach('file', file, 'm.csv')
      .expect(403);
    await outsider.agent
      .post('/v1/organization/member/upload')
      .field('organization', org.id)
      .attach('file', file, 'm.csv')
      .expect(403);
    await owner.agent
      .post('/v1/organization/member/upload')
      .attach('file', file, 'm.csv')
      .expect(400);
    await owner.agent
      .post('/v1/organization/member/upload')
      .field('organization', 'nope')
      .attach('file', file, 'm.csv')
      .expect(400);
    await owner.agent
      .post('/v1/organization/member/upload')
      .field('organization', '1b4e28ba-2fa1-41d2-883f-0016d3cca427')
      .attach('file', file, 'm.csv')
      .expect(404);
  });
});
