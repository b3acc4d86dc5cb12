import { createTestApp, TestApp } from '../../support/app';
import { loggedInClient, typedClient } from '../../support/typed-client';
import { codeOf } from '../../fakes/smtp';

/**
 * A first session driven by the typed client generated from the OpenAPI document
 * (clients/typescript/schema.d.ts, through openapi-fetch): `npm run typecheck` compiles this file
 * against the generated types, so a route, parameter or field that the document lost or renamed
 * breaks the build, and this test shows the client reaches the real service.
 */
describe('typed client (openapi-fetch over the generated schema)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ mail: true });
  });
  afterAll(() => t.close());

  it('registers, verifies, logs in, creates an organization and a class, issues shares and lists them', async () => {
    const client = await typedClient(t);
    const email = `client-${Date.now()}@example.test`;
    const password = 'a long passphrase for the client';

    const registered = await client.POST('/v1/user', {
      body: { email, password, name: 'Ada Client' },
    });
    expect(registered.response.status).toBe(201);
    const code = codeOf(await t.smtp.nextMail(email));
    const verified = await client.POST('/v1/user/email/verify', { body: { email, code } });
    expect(verified.response.status).toBe(200);
    const login = await client.POST('/v1/user/login', { body: { email, password } });
    expect(login.data?.user?.email).toBe(email);

    const org = await client.POST('/v1/organization', { body: { name: 'Typed Inc.' } });
    expect(org.response.status).toBe(201);
    const organization = org.data!.id;
    const security = await client.POST('/v1/organization/{organization}/security', {
      params: { path: { organization } },
      body: {
        name: 'Common Stock',
        classType: 'common',
        idPrefix: 'CS-',
        authorizedShares: '10000000',
      },
    });
    expect(security.data?.name).toBe('Common Stock');
    const member = await client.POST('/v1/organization/{organization}/member', {
      params: { path: { organization } },
      body: { name: 'Alice Holder' },
    });
    expect(member.response.status).toBe(201);
    const issued = await client.POST('/v1/organization/{organization}/shareholding', {
      params: { path: { organization } },
      body: {
        member: member.data!.id,
        security: security.data!.id,
        quantity: '4000000',
        issueDate: '2024-01-15',
      },
    });
    expect(issued.data?.quantity).toBe('4000000');

    const listed = await client.GET('/v1/organization/{organization}/shareholding', {
      params: { path: { organization }, query: { limit: 10 } },
    });
    expect(listed.response.status).toBe(200);
    expect(listed.data?.map((h) => [h.member, h.quantity, h.certificateNumber])).toEqual([
      [member.data!.id, '4000000', issued.data!.certificateNumber],
    ]);
  });

  it("gives a test a client logged in as a new user (the test kit's loggedInClient)", async () => {
    const { client, user } = await loggedInClient(t);
    const org = await client.POST('/v1/organization', { body: { name: 'Kit Inc.' } });
    expect(org.response.status).toBe(201);
    const members = await client.GET('/v1/organization/{organization}/member', {
      params: { path: { organization: org.data!.id } },
    });
    expect(members.data?.map((m) => m.user)).toEqual([user.id]);
    // Another client has no session.
    const anonymous = await (
      await typedClient(t)
    ).GET('/v1/organization/{organization}/member', {
      params: { path: { organization: org.data!.id } },
    });
    expect(anonymous.response.status).toBe(401);
  });
});
