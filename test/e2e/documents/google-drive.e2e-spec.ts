import type { Agent, Test } from 'supertest';
import { DataSource } from 'typeorm';
import { DRIVE_READONLY, FakeDrive } from '../../fakes/drive';
import { createTestApp, TestApp } from '../../support/app';
import { captureOutput } from '../../support/output';
import { ERROR_BODIES } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { sessionSetCookie } from '../../support/sessions';
import { tempStorage } from '../../support/temp-storage';
import { loggedInAgent, LoggedInUser, logIn, registerUser } from '../../support/users';
import { ISO, MISSING, pdf, UUID } from './upload-fixtures';

const storage = tempStorage();
const drivePath = (org: string) => `/v1/organization/${org}/google-drive`;
const keyed = (error: string, key: string) => ({ error, key, message: expect.any(String) });
const badRequest = { error: 'Bad Request', message: expect.any(String) };
const notConnected = keyed('Conflict', 'driveNotConnected');

let mailbox = 0;
const accountEmail = () => `drive-${++mailbox}-${Date.now()}@gmail.example.test`;

describe('cloud drive routes (spec 4.4, issue 37)', () => {
  let t: TestApp;
  let db: DataSource;
  let drive: FakeDrive;
  let output: ReturnType<typeof captureOutput>;

  beforeAll(async () => {
    // Every line the process writes, to check no token is ever logged.
    output = captureOutput();
    drive = await FakeDrive.start();
    t = await createTestApp({
      env: { ...drive.env(), DRIVE_SYNC_INTERVAL_MINUTES: '0', STORAGE_DIR: storage.dir },
    });
    db = t.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await drive.close();
    storage.remove();
    output.restore();
  });

  async function world() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    return { owner, org: org.id };
  }

  const authUrl = async (agent: Agent, org: string) =>
    new URL((await agent.get(`${drivePath(org)}/auth-url`).expect(200)).body.url);

  /** The whole flow: consent URL, the browser at the provider, the code posted back. */
  async function connect(agent: Agent, org: string, email: string, status = 200) {
    const url = await authUrl(agent, org);
    const { code, state } = await drive.authorize(url.toString(), email);
    return agent
      .post(`${drivePath(org)}/connect`)
      .send({ organization: org, code, state })
      .expect(status);
  }

  async function connected(email = accountEmail()) {
    const w = await world();
    const res = await connect(w.owner.agent, w.org, email);
    return { ...w, email, connectionId: res.body.connectionId as string };
  }

  const connectionRow = async (org: string) =>
    (
      await db.query(
        'SELECT id, email, grant_ciphertext, active, sync_error FROM drive_connection WHERE organization_id = $1',
        [org],
      )
    )[0] as
      { id: string; email: string; grant_ciphertext: string | null; active: boolean } | undefined;

  async function configure(agent: Agent, org: string, body: Record<string, unknown> = {}) {
    const res = await agent
      .post(`${drivePath(org)}/sync-config`)
      .send({ organization: org, idpFolderId: 'folder1', idpFolderName: 'Board', ...body });
    if (res.status !== 201)
      throw new Error(`sync-config: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.configurationId as string;
  }

  const configurations = async (agent: Agent, org: string) =>
    (await agent.get(`${drivePath(org)}/status`).expect(200)).body.syncConfigurations as {
      id: string;
    }[];

  describe('GET auth-url', () => {
    it('builds the consent URL of the drive, with a fresh state and PKCE each time', async () => {
      const { owner, org } = await world();
      const url = await authUrl(owner.agent, org);
      expect(`${url.origin}${url.pathname}`).toBe(drive.env().IDP_DRIVE_AUTH_URL);
      const q = Object.fromEntries(url.searchParams);
      expect(q).toMatchObject({
        client_id: drive.clientId,
        redirect_uri: drive.driveRedirectUri,
        response_type: 'code',
        access_type: 'offline',
        prompt: 'consent',
        code_challenge_method: 'S256',
      });
      expect(q.include_granted_scopes).toBeUndefined();
      expect(q.scope.split(' ').sort()).toEqual([DRIVE_READONLY, 'email', 'openid'].sort());
      // 32 random bytes, not the organization id.
      expect(q.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(q.state).not.toContain(org);
      expect(q.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const again = Object.fromEntries((await authUrl(owner.agent, org)).searchParams);
      expect(again.state).not.toBe(q.state);
      expect(again.code_challenge).not.toBe(q.code_challenge);
    });
  });

  describe('POST connect', () => {
    it('connects: answers the connection and e-mail, stores the tokens sealed', async () => {
      const { owner, org } = await world();
      const email = accountEmail();
      const res = await connect(owner.agent, org, email);
      expect(res.body).toEqual({ success: true, connectionId: expect.stringMatching(UUID), email });
      const row = await connectionRow(org);
      expect(row).toMatchObject({ id: res.body.connectionId, email, active: true });
      expect(row!.grant_ciphertext).toMatch(/^v1\./);
      const issued = drive.issuedTokens();
      expect(issued.length).toBeGreaterThanOrEqual(2);
      for (const value of issued) expect(row!.grant_ciphertext).not.toContain(value);
      // The code went to the token endpoint with the drive's redirect and the PKCE verifier.
      const [exchange] = drive
        .requestsTo('POST', /^\/oauth2\/token$/)
        .filter((r) => r.form.grant_type === 'authorization_code')
        .slice(-1);
      expect(exchange.form).toMatchObject({
        redirect_uri: drive.driveRedirectUri,
        code_verifier: expect.stringMatching(/^[A-Za-z0-9._~-]{43,128}$/),
      });
      expect((await owner.agent.get(`${drivePath(org)}/status`).expect(200)).body).toEqual({
        connected: true,
        connectionId: res.body.connectionId,
        email,
        lastSyncAt: null,
        syncError: null,
        syncConfigurations: [],
      });
    });

    it('connects without a state: the PKCE verifier ties the code to the session', async () => {
      const { owner, org } = await world();
      const email = accountEmail();
      const { code } = await drive.authorize((await authUrl(owner.agent, org)).toString(), email);
      const res = await owner.agent
        .post(`${drivePath(org)}/connect`)
        .send({ organization: org, code })
        .expect(200);
      expect(res.body.email).toBe(email);
    });

    it('reads the e-mail from the drive when the token answer has no ID token', async () => {
      const { owner, org } = await world();
      const email = accountEmail();
      const { state } = Object.fromEntries((await authUrl(owner.agent, org)).searchParams);
      const code = drive.issueCode(email, {
        scope: DRIVE_READONLY,
        redirectUri: drive.driveRedirectUri,
      });
      const abouts = drive.requestsTo('GET', /^\/drive\/v3\/about$/).length;
      const res = await owner.agent
        .post(`${drivePath(org)}/connect`)
        .send({ organization: org, code, state })
        .expect(200);
      expect(res.body.email).toBe(email);
      expect(drive.requestsTo('GET', /^\/drive\/v3\/about$/)).toHaveLength(abouts + 1);
      expect((await connectionRow(org))!.email).toBe(email);
    });

    it('connects two organizations’ flows of one session, each with its own state', async () => {
      const a = await world();
      const b = await createOrg(a.owner.agent, 'Second Inc.');
      const urlA = await authUrl(a.owner.agent, a.org);
      const urlB = await authUrl(a.owner.agent, b.id);
      const emailA = accountEmail();
      const emailB = accountEmail();
      const fromA = await drive.authorize(urlA.toString(), emailA);
      const fromB = await drive.authorize(urlB.toString(), emailB);
      // One organization's state does not connect the other.
      await a.owner.agent
        .post(`${drivePath(b.id)}/connect`)
        .send({ organization: b.id, code: fromA.code, state: fromA.state })
        .expect(400);
      const urlB2 = await authUrl(a.owner.agent, b.id);
      const fromB2 = await drive.authorize(urlB2.toString(), emailB);
      await a.owner.agent
        .post(`${drivePath(b.id)}/connect`)
        .send({ organization: b.id, ...fromB2 })
        .expect(200);
      await a.owner.agent
        .post(`${drivePath(a.org)}/connect`)
        .send({ organization: a.org, ...fromA })
        .expect(200);
      expect((await connectionRow(a.org))!.email).toBe(emailA);
      expect((await connectionRow(b.id))!.email).toBe(emailB);
      expect(fromB.code).not.toBe(fromB2.code);
    });

    it('refuses a wrong, missing, used, expired or other session’s authorization (400), storing nothing', async () => {
      const { owner, org } = await world();
      const email = accountEmail();
      const post = (agent: Agent, body: object) =>
        agent.post(`${drivePath(org)}/connect`).send({ organization: org, ...body });

      // None pending.
      const none = await post(owner.agent, {
        code: drive.issueCode(email, { redirectUri: drive.driveRedirectUri }),
      }).expect(400);
      expect(none.body).toEqual(badRequest);

      // A wrong state: refused, and the pending authorization is used up by the attempt.
      const first = await drive.authorize((await authUrl(owner.agent, org)).toString(), email);
      await post(owner.agent, { code: first.code, state: `${first.state}x` }).expect(400);
      await post(owner.agent, first).expect(400);

      // Used: good once.
      const second = await drive.authorize((await authUrl(owner.agent, org)).toString(), email);
      await post(owner.agent, second).expect(200);
      await post(owner.agent, second).expect(400);
      await owner.agent.delete(`${drivePath(org)}/connection`).expect(200);

      // Expired: 10 minutes.
      const late = await drive.authorize((await authUrl(owner.agent, org)).toString(), email);
      const now = Date.now();
      const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 10 * 60 * 1000 + 1);
      try {
        await post(owner.agent, late).expect(400);
      } finally {
        clock.mockRestore();
      }

      // A code consented in another session: its PKCE verifier is not this session's.
      const otherLogin = await logIn(t, owner.email, owner.password);
      const stolen = await drive.authorize((await authUrl(otherLogin, org)).toString(), email);
      await authUrl(owner.agent, org);
      const res = await post(owner.agent, { code: stolen.code }).expect(400);
      expect(res.body.message).toMatch(/invalid_grant/);

      // The other session's state, here: not this session's pending one.
      await authUrl(owner.agent, org);
      const theirs = await drive.authorize((await authUrl(otherLogin, org)).toString(), email);
      await post(owner.agent, theirs).expect(400);
      // ... and the attempt did not use up theirs.
      await post(otherLogin, theirs).expect(200);
      await owner.agent.delete(`${drivePath(org)}/connection`).expect(200);

      // A code the provider never issued.
      const { state } = Object.fromEntries((await authUrl(owner.agent, org)).searchParams);
      await post(owner.agent, { code: '4/never-issued', state }).expect(400);
      expect((await owner.agent.get(`${drivePath(org)}/status`).expect(200)).body).toEqual({
        connected: false,
      });
    });

    it('refuses a body for another organization, a bad body and a grant without the drive scope', async () => {
      const { owner, org } = await world();
      const other = await createOrg(owner.agent, 'Other Inc.');
      const email = accountEmail();
      const flow = await drive.authorize((await authUrl(owner.agent, org)).toString(), email);
      const res = await owner.agent
        .post(`${drivePath(org)}/connect`)
        .send({ organization: other.id, ...flow })
        .expect(400);
      expect(res.body.message).toMatch(/organization/);
      for (const body of [
        { organization: org },
        { code: flow.code },
        { organization: 'nope', code: flow.code },
        { organization: org, code: 7 },
        { organization: org, code: flow.code, state: '' },
      ]) {
        await owner.agent
          .post(`${drivePath(org)}/connect`)
          .send(body)
          .expect(400);
      }
      // The refusals before the pending authorization was read left it: it still connects.
      await owner.agent
        .post(`${drivePath(org)}/connect`)
        .send({ organization: org, ...flow })
        .expect(200);

      const second = await world();
      const { state } = Object.fromEntries(
        (await authUrl(second.owner.agent, second.org)).searchParams,
      );
      const code = drive.issueCode(accountEmail(), {
        scope: 'openid email',
        redirectUri: drive.driveRedirectUri,
      });
      const refused = await second.owner.agent
        .post(`${drivePath(second.org)}/connect`)
        .send({ organization: second.org, code, state })
        .expect(400);
      expect(refused.body.message).toMatch(/drive/);
      expect(await connectionRow(second.org)).toBeUndefined();
    });

    it('reconnects with another account: new tokens, the old grant revoked, the same connection and configurations', async () => {
      const { owner, org, connectionId, email } = await connected();
      const configurationId = await configure(owner.agent, org);
      const before = (await connectionRow(org))!.grant_ciphertext;
      const revokes = drive.requestsTo('POST', /^\/oauth2\/revoke$/).length;
      const other = accountEmail();
      const res = await connect(owner.agent, org, other);
      expect(res.body).toEqual({ success: true, connectionId, email: other });
      expect((await connectionRow(org))!.grant_ciphertext).not.toBe(before);
      const revoked = drive.requestsTo('POST', /^\/oauth2\/revoke$/).slice(revokes);
      expect(revoked).toHaveLength(1);
      expect(drive.isLive(revoked[0].query.token)).toBe(false);
      expect((await configurations(owner.agent, org)).map((c) => c.id)).toEqual([configurationId]);
      // The same account again: tokens replaced, nothing revoked.
      await connect(owner.agent, org, other);
      expect(drive.requestsTo('POST', /^\/oauth2\/revoke$/).slice(revokes)).toHaveLength(1);
      expect(email).not.toBe(other);
    });
  });

  describe('DELETE connection', () => {
    it('deactivates, wipes and revokes the grant; configurations and synced documents stay', async () => {
      const { owner, org } = await connected();
      const configurationId = await configure(owner.agent, org);
      // A document the sync brought into the data room.
      const doc = await owner.agent
        .post(`/v1/organization/${org}/document`)
        .attach('file', pdf('synced'), 'synced.pdf')
        .expect(201);
      await db.query(
        `INSERT INTO drive_synced_file (configuration_id, idp_file_id, document_id, change_key)
         VALUES ($1, 'file1', $2, 'md5')`,
        [configurationId, doc.body[0].id],
      );
      const revokes = drive.requestsTo('POST', /^\/oauth2\/revoke$/).length;
      const res = await owner.agent.delete(`${drivePath(org)}/connection`).expect(200);
      expect(res.body).toEqual({});
      const row = await connectionRow(org);
      expect(row).toMatchObject({ active: false, grant_ciphertext: null });
      const revoked = drive.requestsTo('POST', /^\/oauth2\/revoke$/).slice(revokes);
      expect(revoked).toHaveLength(1);
      expect(revoked[0].query.token).toMatch(/^1\/\/refresh/);
      expect(drive.isLive(revoked[0].query.token)).toBe(false);
      expect((await owner.agent.get(`${drivePath(org)}/status`).expect(200)).body).toEqual({
        connected: false,
      });
      const documents = await owner.agent.get(`/v1/organization/${org}/document`).expect(200);
      expect(documents.body.map((d: { id: string }) => d.id)).toEqual([doc.body[0].id]);
      const synced = await db.query(
        'SELECT count(*)::int AS n FROM drive_synced_file WHERE configuration_id = $1',
        [configurationId],
      );
      expect(synced[0].n).toBe(1);
      // None active: 404.
      const again = await owner.agent.delete(`${drivePath(org)}/connection`).expect(404);
      expect(again.body).toEqual(ERROR_BODIES[404]);
      // A reconnect finds the configuration still there.
      await connect(owner.agent, org, accountEmail());
      expect((await configurations(owner.agent, org)).map((c) => c.id)).toEqual([configurationId]);
    });

    it('disconnects even when the provider fails to revoke', async () => {
      const { owner, org } = await connected();
      drive.failNext(2, { path: /^\/oauth2\/revoke$/ });
      await owner.agent.delete(`${drivePath(org)}/connection`).expect(200);
      expect(await connectionRow(org)).toMatchObject({ active: false, grant_ciphertext: null });
    });

    it('answers 404 when never connected', async () => {
      const { owner, org } = await world();
      await owner.agent.delete(`${drivePath(org)}/connection`).expect(404);
    });
  });

  describe('GET status', () => {
    it('is {connected: false} alone before any connection', async () => {
      const { owner, org } = await world();
      const res = await owner.agent.get(`${drivePath(org)}/status`).expect(200);
      expect(res.body).toEqual({ connected: false });
    });
  });

  describe('GET folders', () => {
    it('lists the folders of root or of a folder, by name', async () => {
      const { owner, org, email } = await connected();
      const board = drive.addFolder(email, { name: 'Board' });
      drive.addFolder(email, { name: 'Archive' });
      drive.addFile(email, { name: 'loose.pdf', content: pdf() });
      const minutes = drive.addFolder(email, { name: 'Minutes', parentId: board });
      const root = await owner.agent.get(`${drivePath(org)}/folders`).expect(200);
      expect(root.body.map((f: { name: string }) => f.name)).toEqual(['Archive', 'Board']);
      expect(root.body[1]).toEqual({ id: board, name: 'Board' });
      const inside = await owner.agent
        .get(`${drivePath(org)}/folders?parentId=${board}`)
        .expect(200);
      expect(inside.body).toEqual([{ id: minutes, name: 'Minutes' }]);
      await owner.agent.get(`${drivePath(org)}/folders?parentId=root`).expect(200);
    });

    it('refuses a parentId that is not a drive id (400)', async () => {
      const { owner, org } = await connected();
      for (const parentId of ["x' or 1=1", 'a b', 'a/b', 'x'.repeat(129), '']) {
        const res = await owner.agent
          .get(`${drivePath(org)}/folders`)
          .query({ parentId })
          .expect(400);
        expect(res.body).toEqual(badRequest);
      }
    });

    it('answers 409 driveNotConnected when none is connected, or the drive refuses the grant', async () => {
      const { owner, org } = await world();
      const res = await owner.agent.get(`${drivePath(org)}/folders`).expect(409);
      expect(res.body).toEqual(notConnected);

      const c = await connected();
      drive.revokeGrantsOf(c.email);
      drive.expireAccessTokens();
      const refused = await c.owner.agent.get(`${drivePath(c.org)}/folders`).expect(409);
      expect(refused.body).toEqual(notConnected);
      const status = await c.owner.agent.get(`${drivePath(c.org)}/status`).expect(200);
      expect(status.body.syncError).toEqual(expect.any(String));
    });

    it('answers 503 when the drive fails', async () => {
      const { owner, org } = await connected();
      drive.failNext(2, { path: /^\/drive\/v3\/files$/ });
      const res = await owner.agent.get(`${drivePath(org)}/folders`).expect(503);
      expect(res.body).toEqual({ error: 'Service Unavailable', message: expect.any(String) });
    });
  });

  describe('sync configurations', () => {
    it('creates one, normalising the target path and the file-type filter', async () => {
      const { owner, org } = await connected();
      const res = await owner.agent
        .post(`${drivePath(org)}/sync-config`)
        .send({
          organization: org,
          idpFolderId: 'folder-A_1',
          idpFolderName: ' Board ',
          targetDataRoomPath: '//Board / Minutes//',
          syncSubfolders: true,
          fileTypeFilter: 'TXT, pdf ,PDF',
        })
        .expect(201);
      expect(res.body).toEqual({ success: true, configurationId: expect.stringMatching(UUID) });
      const [configuration] = await configurations(owner.agent, org);
      expect(configuration).toEqual({
        id: res.body.configurationId,
        idpFolderId: 'folder-A_1',
        idpFolderName: 'Board',
        targetDataRoomPath: 'Board/Minutes',
        syncEnabled: true,
        syncSubfolders: true,
        fileTypeFilter: 'pdf,txt',
        lastSyncAt: null,
        syncError: null,
      });
      // The defaults: the top level, every type, no subfolders.
      const plain = await configure(owner.agent, org, { idpFolderId: 'other' });
      expect((await configurations(owner.agent, org)).find((c) => c.id === plain)).toMatchObject({
        targetDataRoomPath: '',
        fileTypeFilter: '',
        syncSubfolders: false,
      });
    });

    it('refuses bad input (400), a taken folder and target (409), and changes nothing', async () => {
      const { owner, org } = await connected();
      const other = await createOrg(owner.agent, 'Other Inc.');
      const valid = { organization: org, idpFolderId: 'folder1', idpFolderName: 'Board' };
      for (const body of [
        { ...valid, organization: other.id },
        { ...valid, targetDataRoomPath: 'a/../b' },
        { ...valid, targetDataRoomPath: '..' },
        { ...valid, targetDataRoomPath: 'a//b' },
        { ...valid, targetDataRoomPath: 'a\\b' },
        { ...valid, fileTypeFilter: '.pdf' },
        { ...valid, fileTypeFilter: 'pdf,exe' },
        { ...valid, idpFolderId: "x' in parents" },
        { ...valid, idpFolderId: undefined },
        { ...valid, idpFolderName: '  ' },
        { ...valid, syncSubfolders: 'yes' },
        { ...valid, organization: undefined },
      ]) {
        const res = await owner.agent.post(`${drivePath(org)}/sync-config`).send(body);
        expect([res.status, JSON.stringify(body)]).toEqual([400, JSON.stringify(body)]);
      }
      expect(await configurations(owner.agent, org)).toEqual([]);

      await configure(owner.agent, org, { targetDataRoomPath: 'Board' });
      const taken = await owner.agent
        .post(`${drivePath(org)}/sync-config`)
        .send({ ...valid, targetDataRoomPath: '/Board/' })
        .expect(409);
      expect(taken.body).toEqual({ error: 'Conflict', message: expect.any(String) });
      // Another target, or another folder, is another configuration.
      await configure(owner.agent, org, { targetDataRoomPath: 'Elsewhere' });
      await configure(owner.agent, org, { idpFolderId: 'folder2', targetDataRoomPath: 'Board' });
      expect(await configurations(owner.agent, org)).toHaveLength(3);
    });

    it('answers 409 driveNotConnected on every configuration write without a connection', async () => {
      const { owner, org } = await connected();
      const id = await configure(owner.agent, org);
      await owner.agent.delete(`${drivePath(org)}/connection`).expect(200);
      for (const res of [
        await owner.agent
          .post(`${drivePath(org)}/sync-config`)
          .send({ organization: org, idpFolderId: 'f', idpFolderName: 'F' }),
        await owner.agent.patch(`${drivePath(org)}/sync-config/${id}`).send({ syncEnabled: false }),
        await owner.agent.delete(`${drivePath(org)}/sync-config/${id}`),
      ]) {
        expect(res.status).toBe(409);
        expect(res.body).toEqual(notConnected);
      }
    });

    it('changes one (PATCH), normalising as on creation', async () => {
      const { owner, org } = await connected();
      const id = await configure(owner.agent, org, { targetDataRoomPath: 'A' });
      await configure(owner.agent, org, { targetDataRoomPath: 'B' });
      const path = `${drivePath(org)}/sync-config/${id}`;
      const res = await owner.agent
        .patch(path)
        .send({ syncEnabled: false, targetDataRoomPath: '/C/D/', fileTypeFilter: 'PNG,pdf' })
        .expect(200);
      expect(res.body).toEqual({
        id,
        idpFolderId: 'folder1',
        idpFolderName: 'Board',
        targetDataRoomPath: 'C/D',
        syncEnabled: false,
        syncSubfolders: false,
        fileTypeFilter: 'pdf,png',
        lastSyncAt: null,
        syncError: null,
      });
      // What is left out stays.
      const toggled = await owner.agent.patch(path).send({ syncSubfolders: true }).expect(200);
      expect(toggled.body).toMatchObject({ syncSubfolders: true, targetDataRoomPath: 'C/D' });
      const cleared = await owner.agent.patch(path).send({ fileTypeFilter: '' }).expect(200);
      expect(cleared.body.fileTypeFilter).toBe('');

      for (const body of [
        { targetDataRoomPath: 'x/..' },
        { fileTypeFilter: 'exe' },
        { syncEnabled: 'no' },
      ]) {
        await owner.agent.patch(path).send(body).expect(400);
      }
      // The target of another live configuration of the same folder.
      const taken = await owner.agent.patch(path).send({ targetDataRoomPath: 'B' }).expect(409);
      expect(taken.body).toEqual({ error: 'Conflict', message: expect.any(String) });
      expect((await configurations(owner.agent, org)).find((c) => c.id === id)).toMatchObject({
        targetDataRoomPath: 'C/D',
        syncEnabled: false,
        syncSubfolders: true,
      });
    });

    it('deletes one (soft): 404 afterwards, its history kept, its folder and target free again', async () => {
      const { owner, org } = await connected();
      const id = await configure(owner.agent, org);
      await insertRuns(org, id, 1);
      const path = `${drivePath(org)}/sync-config/${id}`;
      expect((await owner.agent.delete(path).expect(200)).body).toEqual({});
      expect(await configurations(owner.agent, org)).toEqual([]);
      await owner.agent.delete(path).expect(404);
      await owner.agent.patch(path).send({ syncEnabled: true }).expect(404);
      const rows = await db.query('SELECT deleted_at FROM drive_sync_configuration WHERE id = $1', [
        id,
      ]);
      expect(rows[0].deleted_at).toBeInstanceOf(Date);
      const history = await owner.agent
        .get(`${drivePath(org)}/sync-history?configurationId=${id}`)
        .expect(200);
      expect(history.body.history).toHaveLength(1);
      await configure(owner.agent, org);
    });

    it('answers 404 for another organization’s or an unknown configuration, 400 for a malformed id', async () => {
      const mine = await connected();
      const theirs = await connected();
      const id = await configure(theirs.owner.agent, theirs.org);
      for (const path of [
        `${drivePath(mine.org)}/sync-config/${id}`,
        `${drivePath(mine.org)}/sync-config/${MISSING}`,
        `${drivePath(theirs.org)}/sync-config/${id}`,
      ]) {
        const patch = await mine.owner.agent.patch(path).send({ syncEnabled: false });
        const del = await mine.owner.agent.delete(path);
        // Under the other organization's path the caller is no member: 403 there.
        const expected = path.includes(theirs.org) ? 403 : 404;
        expect([patch.status, del.status]).toEqual([expected, expected]);
      }
      await mine.owner.agent
        .patch(`${drivePath(mine.org)}/sync-config/nope`)
        .send({})
        .expect(400);
      expect((await configurations(theirs.owner.agent, theirs.org)).map((c) => c.id)).toEqual([id]);
      const history = await mine.owner.agent
        .get(`${drivePath(mine.org)}/sync-history?configurationId=${id}`)
        .expect(404);
      expect(history.body).toEqual(ERROR_BODIES[404]);
    });
  });

  async function insertRuns(org: string, configurationId: string, count: number, from = 0) {
    for (let i = from; i < from + count; i++) {
      await db.query(
        `INSERT INTO drive_sync_history (id, organization_id, configuration_id, status,
           files_processed, files_added, triggered_at, started_at, completed_at)
         VALUES (gen_random_uuid(), $1, $2, 'completed', $3, $3,
                 timestamptz '2026-01-01T00:00:00Z' + make_interval(mins => $3),
                 timestamptz '2026-01-01T00:00:00Z' + make_interval(mins => $3),
                 timestamptz '2026-01-01T00:00:01Z' + make_interval(mins => $3))`,
        [org, configurationId, i],
      );
    }
  }

  describe('GET sync-history', () => {
    it('answers the newest 50 runs first, of one configuration when named', async () => {
      const { owner, org } = await connected();
      expect((await owner.agent.get(`${drivePath(org)}/sync-history`).expect(200)).body).toEqual({
        history: [],
      });
      const a = await configure(owner.agent, org, { idpFolderId: 'a' });
      const b = await configure(owner.agent, org, { idpFolderId: 'b' });
      await insertRuns(org, a, 45);
      await insertRuns(org, b, 10, 45);
      const all = (await owner.agent.get(`${drivePath(org)}/sync-history`).expect(200)).body
        .history as { configurationId: string; filesProcessed: number }[];
      expect(all).toHaveLength(50);
      expect(all.map((r) => r.filesProcessed)).toEqual(
        Array.from({ length: 50 }, (_, i) => 54 - i),
      );
      expect(all[0]).toEqual({
        id: expect.stringMatching(UUID),
        configurationId: b,
        status: 'completed',
        errorMessage: null,
        filesProcessed: 54,
        filesAdded: 54,
        filesUpdated: 0,
        filesSkipped: 0,
        filesFailed: 0,
        triggeredAt: expect.stringMatching(ISO),
        startedAt: expect.stringMatching(ISO),
        completedAt: expect.stringMatching(ISO),
      });
      const onlyB = (
        await owner.agent.get(`${drivePath(org)}/sync-history?configurationId=${b}`).expect(200)
      ).body.history as { configurationId: string }[];
      expect(onlyB).toHaveLength(10);
      expect(new Set(onlyB.map((r) => r.configurationId))).toEqual(new Set([b]));
      await owner.agent.get(`${drivePath(org)}/sync-history?configurationId=nope`).expect(400);
      await owner.agent
        .get(`${drivePath(org)}/sync-history?configurationId=${MISSING}`)
        .expect(404);
      // Answered without a connection too.
      await owner.agent.delete(`${drivePath(org)}/connection`).expect(200);
      await owner.agent.get(`${drivePath(org)}/sync-history`).expect(200);
    });
  });

  it('logged none of the tokens the provider issued, nor a code', () => {
    const log = output.text();
    const codes = drive.requestsTo('POST', /^\/oauth2\/token$/).map((r) => r.form.code);
    const secrets = [...drive.issuedTokens(), ...codes.filter(Boolean)];
    expect(secrets.length).toBeGreaterThan(20);
    expect(secrets.filter((secret) => log.includes(secret))).toEqual([]);
  });

  describe('permissions', () => {
    it('lets a Viewer read and refuses them every write; a member without canViewOrganization nothing; an Editor everything', async () => {
      const { owner, org, email } = await connected();
      const id = await configure(owner.agent, org);
      drive.addFolder(email, { name: 'Visible' });
      await owner.agent
        .post(`/v1/organization/${org}/role`)
        .send({ name: 'Nothing', permissions: [] })
        .expect(201);
      const viewer = await memberAgent(t, owner.agent, org, 'Viewer');
      const nothing = await memberAgent(t, owner.agent, org, 'Nothing');
      const editor = await memberAgent(t, owner.agent, org, 'Editor');
      const outsider = await loggedInAgent(t);

      const reads = (agent: Agent) => [
        agent.get(`${drivePath(org)}/status`),
        agent.get(`${drivePath(org)}/folders`),
        agent.get(`${drivePath(org)}/sync-history`),
      ];
      const writes = (agent: Agent) => [
        agent.get(`${drivePath(org)}/auth-url`),
        agent.post(`${drivePath(org)}/connect`).send({ organization: org, code: 'c' }),
        agent
          .post(`${drivePath(org)}/sync-config`)
          .send({ organization: org, idpFolderId: 'x', idpFolderName: 'X' }),
        agent.patch(`${drivePath(org)}/sync-config/${id}`).send({ syncEnabled: false }),
        agent.delete(`${drivePath(org)}/sync-config/${id}`),
        agent.delete(`${drivePath(org)}/connection`),
      ];
      for (const req of reads(viewer.agent)) await req.expect(200);
      for (const req of writes(viewer.agent)) await req.expect(403).expect(errorIs(403));
      for (const agent of [nothing.agent, outsider.agent]) {
        for (const req of [...reads(agent), ...writes(agent)]) await req.expect(403);
      }
      for (const req of [...reads(t.http), ...writes(t.http)]) await req.expect(401);
      expect(await configurations(owner.agent, org)).toHaveLength(1);

      for (const req of reads(editor.agent)) await req.expect(200);
      await editor.agent.get(`${drivePath(org)}/auth-url`).expect(200);
      await editor.agent
        .patch(`${drivePath(org)}/sync-config/${id}`)
        .send({ syncEnabled: false })
        .expect(200);
      await configure(editor.agent, org, { idpFolderId: 'edited' });
      await editor.agent.delete(`${drivePath(org)}/sync-config/${id}`).expect(200);
      await connect(editor.agent, org, accountEmail());
      await editor.agent.delete(`${drivePath(org)}/connection`).expect(200);
    });
  });
});

const errorIs = (status: 403) => (res: { body: unknown }) =>
  expect(res.body).toEqual(ERROR_BODIES[status]);

describe('cloud drive in production', () => {
  let t: TestApp;
  let drive: FakeDrive;
  beforeAll(async () => {
    drive = await FakeDrive.start();
    t = await createTestApp({
      env: {
        ...drive.env(),
        DRIVE_SYNC_INTERVAL_MINUTES: '0',
        NODE_ENV: 'production',
        TRUST_PROXY: 'loopback',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await drive.close();
  });

  it('answers every route 404 like an unknown path, before the session, signed in or not', async () => {
    const { email, password } = await registerUser(t);
    const login = await t.http
      .post('/v1/user/login')
      .set('X-Forwarded-Proto', 'https')
      .send({ email, password })
      .expect(200);
    const cookie = sessionSetCookie(login)!.split(';')[0];
    const as = (req: Test) => req.set('Cookie', cookie).set('X-Forwarded-Proto', 'https');
    const org = (await as(t.http.post('/v1/organization')).send({ name: 'Prod Inc.' }).expect(201))
      .body.id as string;
    await as(t.http.get(`/v1/organization/${org}`)).expect(200);
    const routes = (http: TestApp['http']) => [
      http.get(`${drivePath(org)}/auth-url`),
      http.post(`${drivePath(org)}/connect`).send({ organization: org, code: 'c' }),
      http.delete(`${drivePath(org)}/connection`),
      http.get(`${drivePath(org)}/status`),
      http.get(`${drivePath(org)}/folders?parentId=root`),
      http.post(`${drivePath(org)}/sync-config`).send({}),
      http.patch(`${drivePath(org)}/sync-config/${MISSING}`).send({}),
      http.delete(`${drivePath(org)}/sync-config/${MISSING}`),
      http.get(`${drivePath(org)}/sync-history`),
      // The sync's route, and any other under the segment.
      http.post(`${drivePath(org)}/sync`).send({ organization: org }),
      http.get(drivePath(org)),
    ];
    const unknown = await t.http.get('/v1/no-such-route').expect(404);
    for (const signedIn of [false, true]) {
      for (const req of routes(t.http)) {
        const res = await (signedIn ? as(req) : req).expect(404);
        expect(res.body).toEqual(unknown.body);
      }
    }
    expect(drive.requests).toEqual([]);
  });
});

describe('cloud drive without its configuration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        IDP_DRIVE_CLIENT_ID: '',
        IDP_DRIVE_CLIENT_SECRET: '',
        IDP_DRIVE_AUTH_URL: '',
        IDP_DRIVE_TOKEN_URL: '',
        IDP_DRIVE_REVOKE_URL: '',
        IDP_DRIVE_SYNC_REDIRECT_URI: '',
        IDP_DRIVE_API_URL: '',
        DRIVE_SYNC_INTERVAL_MINUTES: '0',
      },
    });
  });
  afterAll(() => t.close());

  it('answers 500 driveNotConfigured naming IDP_DRIVE_CLIENT_ID, after the session and permission', async () => {
    const owner = await loggedInAgent(t);
    const org = (await createOrg(owner.agent)).id;
    const id = MISSING;
    const routes = (agent: Agent | TestApp['http']) => [
      agent.get(`${drivePath(org)}/auth-url`),
      agent.post(`${drivePath(org)}/connect`).send({ organization: org, code: 'c' }),
      agent.delete(`${drivePath(org)}/connection`),
      agent.get(`${drivePath(org)}/status`),
      agent.get(`${drivePath(org)}/folders`),
      agent
        .post(`${drivePath(org)}/sync-config`)
        .send({ organization: org, idpFolderId: 'f', idpFolderName: 'F' }),
      agent.get(`${drivePath(org)}/sync-history`),
    ];
    for (const req of routes(owner.agent)) {
      const res = await req;
      expect(res.status).toBe(500);
      expect(res.body).toEqual(keyed('Internal Server Error', 'driveNotConfigured'));
      expect(res.body.message).toContain('IDP_DRIVE_CLIENT_ID');
    }
    // The guard of a configuration id runs first: an unknown one is 404.
    await owner.agent.delete(`${drivePath(org)}/sync-config/${id}`).expect(404);
    for (const req of routes(t.http)) await req.expect(401);
    const outsider = await loggedInAgent(t);
    for (const req of routes(outsider.agent)) await req.expect(403);
  });
});

describe('cloud drive without its redirect URI', () => {
  let t: TestApp;
  let drive: FakeDrive;
  beforeAll(async () => {
    drive = await FakeDrive.start();
    t = await createTestApp({
      env: { ...drive.env(), IDP_DRIVE_SYNC_REDIRECT_URI: '', DRIVE_SYNC_INTERVAL_MINUTES: '0' },
    });
  });
  afterAll(async () => {
    await t.close();
    await drive.close();
  });

  it('answers 500 naming IDP_DRIVE_SYNC_REDIRECT_URI while the contacts still work', async () => {
    const owner: LoggedInUser = await loggedInAgent(t);
    const org = (await createOrg(owner.agent)).id;
    const res = await owner.agent.get(`${drivePath(org)}/auth-url`).expect(500);
    expect(res.body).toEqual(keyed('Internal Server Error', 'driveNotConfigured'));
    expect(res.body.message).toContain('IDP_DRIVE_SYNC_REDIRECT_URI');
    const contacts = await owner.agent.get('/v1/idp/auth-url').expect(200);
    expect(new URL(contacts.body.url).searchParams.get('redirect_uri')).toBe(drive.redirectUri);
  });
});
