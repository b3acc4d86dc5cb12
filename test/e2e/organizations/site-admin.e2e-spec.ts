import {
  SiteAdminService,
  UnknownUserError,
} from '../../../src/organizations/site-admin/site-admin.service';
import { createTestApp, TestApp } from '../../support/app';
import { cli } from '../../support/cli';
import { loggedInAgent } from '../../support/users';
import { errorBody } from '../../support/errors';

describe('site admin', () => {
  let t: TestApp;
  let admins: SiteAdminService;
  beforeAll(async () => {
    t = await createTestApp();
    admins = t.get(SiteAdminService);
  });
  afterAll(() => t.close());

  it('GET /v1/admin/test is 403 for a user, {isAdmin: true} once granted, 403 again once revoked', async () => {
    const { agent, email } = await loggedInAgent(t);
    await agent.get('/v1/admin/test').expect(403).expect(errorBody(403));
    const granted = await admins.grant(` ${email.toUpperCase()} `);
    expect(granted).toMatchObject({ email: email.toLowerCase(), changed: true });
    await agent.get('/v1/admin/test').expect(200, { isAdmin: true });
    expect(await admins.grant(email)).toMatchObject({ changed: false });
    expect(await admins.revoke(email)).toMatchObject({ changed: true });
    await agent.get('/v1/admin/test').expect(403);
    expect(await admins.revoke(email)).toMatchObject({ changed: false });
  });

  it('GET /v1/admin/test requires a session', async () => {
    await t.http.get('/v1/admin/test').expect(401).expect(errorBody(401));
  });

  it('refuses an unknown e-mail', async () => {
    await expect(admins.grant('nobody@example.test')).rejects.toBeInstanceOf(UnknownUserError);
    await expect(admins.revoke('nobody@example.test')).rejects.toBeInstanceOf(UnknownUserError);
  });

  it('npm run cli -- site-admin:grant / revoke work on the real database', async () => {
    const { agent, email } = await loggedInAgent(t);
    const granted = await cli(t, 'site-admin:grant', email);
    expect(granted).toMatchObject({ code: 0 });
    expect(granted.stdout).toContain(`${email.toLowerCase()} is now a site admin`);
    await agent.get('/v1/admin/test').expect(200, { isAdmin: true });

    const again = await cli(t, 'site-admin:grant', email);
    expect(again).toMatchObject({ code: 0 });
    expect(again.stdout).toContain('already');

    const revoked = await cli(t, 'site-admin:revoke', email);
    expect(revoked).toMatchObject({ code: 0 });
    await agent.get('/v1/admin/test').expect(403);

    const unknown = await cli(t, 'site-admin:grant', 'nobody@example.test');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('nobody@example.test');

    const missing = await cli(t, 'site-admin:grant');
    expect(missing.code).toBe(2);
    // Five CLI processes, each compiling the service: minutes on a loaded two-core machine.
  }, 300_000);
});
