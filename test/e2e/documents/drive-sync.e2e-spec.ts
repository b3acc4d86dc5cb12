import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { QueueName } from '../../../src/events';
import { Scheduler } from '../../../src/scheduler';
import { GRANT_REFUSED } from '../../../src/documents/drive/drive-access';
import { DriveConnection } from '../../../src/documents/drive/store/drive-connection.entity';
import { DriveSyncConfiguration } from '../../../src/documents/drive/store/drive-sync-configuration.entity';
import { DriveSyncRun } from '../../../src/documents/drive/store/drive-sync-run.entity';
import { DriveSyncQueue } from '../../../src/documents/drive/sync/drive-sync-queue';
import { DriveSyncRunner } from '../../../src/documents/drive/sync/drive-sync-runner';
import { DriveSyncs, SYNC_WAIT_MS } from '../../../src/documents/drive/sync/drive-syncs.service';
import { FakeDrive } from '../../fakes/drive';
import { WebhookReceiver } from '../../fakes/webhook-receiver';
import { createTestApp, TestApp } from '../../support/app';
import {
  configureSync,
  connectDrive,
  counts,
  documentContent,
  listDocuments,
  MB,
  pdf,
  syncNow,
  txt,
} from '../../support/drive-sync';
import { ERROR_BODIES } from '../../support/errors';
import { eventually } from '../../support/eventually';
import { createOrg, memberAgent } from '../../support/orgs';
import { tempStorage } from '../../support/temp-storage';
import { loggedInAgent, LoggedInUser } from '../../support/users';
import { receivedAt, registerEndpoint } from '../../support/webhooks';

const storage = tempStorage();
const base = (org: string) => `/v1/organization/${org}`;
const syncPath = (org: string) => `${base(org)}/google-drive/sync`;
describe('cloud-drive sync runs (issue 37)', () => {
  let t: TestApp;
  let drive: FakeDrive;
  let db: DataSource;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    drive = await FakeDrive.start();
    receiver = await WebhookReceiver.start();
    t = await createTestApp({
      env: {
        ...drive.env(),
        DRIVE_SYNC_INTERVAL_MINUTES: '0',
        STORAGE_DIR: storage.dir,
        DATA_ROOM_UPLOAD_SIZE_LIMIT_MB: '1',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      },
    });
    db = t.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await drive.close();
    await receiver.close();
    storage.remove();
  });

  /** An organization whose drive (a new account's) is connected, its owner logged in. */
  async function connected() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const email = await connectDrive(t, drive, org.id, owner.user.id);
    return { owner, org: org.id, email };
  }

  const configure = (
    org: string,
    createdByUserId: string,
    idpFolderId: string,
    options?: Partial<DriveSyncConfiguration>,
  ) => configureSync(db, org, createdByUserId, idpFolderId, options);
  const sync = syncNow;

  const history = (configurationId: string) =>
    db.getRepository(DriveSyncRun).find({
      where: { configurationId },
      order: { triggeredAt: 'DESC' },
    });

  const list = listDocuments;
  const content = documentContent;

  describe('POST .../google-drive/sync', () => {
    it('adds new files (subfolders as folders under the target, a Doc as .docx), then skips them; a change updates the same document', async () => {
      const { owner, org, email } = await connected();
      const folder = drive.addFolder(email, { name: 'Board' });
      const sub = drive.addFolder(email, { name: 'Minutes', parentId: folder });
      drive.addFile(email, { name: 'deck.pdf', parentId: folder, content: pdf('deck') });
      const notes = drive.addFile(email, {
        name: 'notes.txt',
        parentId: folder,
        content: txt('v1'),
      });
      drive.addNativeFile(email, { name: 'Plan', parentId: folder, kind: 'document' });
      drive.addNativeFile(email, { name: 'Survey', parentId: folder, kind: 'form' });
      drive.addFile(email, { name: 'march.txt', parentId: sub, content: txt('march') });
      const config = await configure(org, owner.user.id, folder, {
        targetDataRoomPath: 'Drive/Board',
        syncSubfolders: true,
      });

      expect(await sync(owner.agent, org)).toEqual([
        { configurationId: config, status: 'completed', ...counts(4, 0, 0, 0) },
      ]);
      const first = await list(owner.agent, org);
      const byName = new Map(first.entries.map((e) => [e.name, e]));
      expect([...byName.keys()].sort()).toEqual(
        ['Board', 'Drive', 'Minutes', 'Plan.docx', 'deck.pdf', 'march.txt', 'notes.txt'].sort(),
      );
      expect(byName.get('Board')!.parentFolder).toBe(byName.get('Drive')!.id);
      expect(byName.get('Minutes')!.parentFolder).toBe(byName.get('Board')!.id);
      expect(byName.get('march.txt')!.parentFolder).toBe(byName.get('Minutes')!.id);
      expect(byName.get('deck.pdf')!.parentFolder).toBe(byName.get('Board')!.id);
      expect((await content(owner.agent, org, byName.get('Plan.docx')!.id)).subarray(0, 2)).toEqual(
        Buffer.from('PK'),
      );

      // Right after a run, another runs (its own history entry), and finds nothing new.
      expect(await sync(owner.agent, org, config)).toEqual([
        { configurationId: config, status: 'completed', ...counts(0, 0, 4, 0) },
      ]);
      expect(await sync(owner.agent, org, config)).toEqual([
        { configurationId: config, status: 'completed', ...counts(0, 0, 4, 0) },
      ]);
      expect((await list(owner.agent, org)).etag).toBe(first.etag);

      drive.updateFile(notes, { content: txt('v2') });
      expect(await sync(owner.agent, org)).toEqual([
        { configurationId: config, status: 'completed', ...counts(0, 1, 3, 0) },
      ]);
      const after = await list(owner.agent, org);
      expect(after.etag).not.toBe(first.etag);
      expect(after.entries.map((e) => e.id).sort()).toEqual(first.entries.map((e) => e.id).sort());
      expect((await content(owner.agent, org, byName.get('notes.txt')!.id)).toString()).toBe(
        'v2\n',
      );

      const runs = await history(config);
      expect(runs).toHaveLength(4);
      expect(new Set(runs.map((r) => r.id)).size).toBe(4);
      expect(runs[0]).toMatchObject({
        status: 'completed',
        errorMessage: null,
        triggeredByUserId: owner.user.id,
        startedAt: expect.any(Date),
        completedAt: expect.any(Date),
      });
      const configuration = await db
        .getRepository(DriveSyncConfiguration)
        .findOneByOrFail({ id: config });
      expect(configuration).toMatchObject({ lastSyncAt: expect.any(Date), syncError: null });
      const connection = await db.getRepository(DriveConnection).findOneByOrFail({
        organizationId: org,
      });
      expect(connection).toMatchObject({ lastSyncAt: expect.any(Date), syncError: null });
    });

    it('counts a broken file, an oversized one and a taken name as failed; the run completes and the rest lands', async () => {
      const { owner, org, email } = await connected();
      const folder = drive.addFolder(email, { name: 'Mixed' });
      drive.addFile(email, { name: 'good.txt', parentId: folder, content: txt('good') });
      const broken = drive.addFile(email, {
        name: 'broken.txt',
        parentId: folder,
        content: txt('x'),
      });
      drive.addFile(email, {
        name: 'huge.pdf',
        parentId: folder,
        content: Buffer.concat([pdf('huge'), Buffer.alloc(MB + 1)]),
      });
      drive.addFile(email, { name: 'taken.txt', parentId: folder, content: txt('from drive') });
      // Filtered out: not counted at all.
      drive.addFile(email, { name: 'skipped.csv', parentId: folder, content: txt('a,b') });
      await owner.agent
        .post(`${base(org)}/document`)
        .attach('file', txt('mine'), 'Taken.TXT')
        .expect(201);
      const config = await configure(org, owner.user.id, folder, { fileTypeFilter: 'pdf,txt' });

      // Its download answers 500, and so does the one retry the client makes.
      drive.failNext(2, { path: new RegExp(`/files/${broken}$`) });
      expect(await sync(owner.agent, org)).toEqual([
        { configurationId: config, status: 'completed', ...counts(1, 0, 0, 3) },
      ]);
      const names = (await list(owner.agent, org)).entries.map((e) => e.name).sort();
      expect(names).toEqual(['Taken.TXT', 'good.txt']);

      // The broken file comes through once the drive answers again; the others still fail.
      expect(await sync(owner.agent, org)).toEqual([
        { configurationId: config, status: 'completed', ...counts(1, 0, 1, 2) },
      ]);
    });

    it('adds a changed file again when its document was deleted from the data room; files gone from the drive stay', async () => {
      const { owner, org, email } = await connected();
      const folder = drive.addFolder(email, { name: 'Returns' });
      const file = drive.addFile(email, { name: 'r.txt', parentId: folder, content: txt('1') });
      const gone = drive.addFile(email, { name: 'gone.txt', parentId: folder, content: txt('g') });
      await configure(org, owner.user.id, folder);
      await sync(owner.agent, org);
      const [first] = (await list(owner.agent, org)).entries.filter((e) => e.name === 'r.txt');
      await owner.agent.delete(`${base(org)}/document/${first.id}`).expect(200);
      drive.removeFile(gone);
      drive.updateFile(file, { content: txt('2') });
      expect(await sync(owner.agent, org)).toEqual([
        expect.objectContaining({ status: 'completed', ...counts(1, 0, 0, 0) }),
      ]);
      const entries = (await list(owner.agent, org)).entries;
      expect(entries.map((e) => e.name).sort()).toEqual(['gone.txt', 'r.txt']);
      const again = entries.find((e) => e.name === 'r.txt')!;
      expect(again.id).not.toBe(first.id);
      expect((await content(owner.agent, org, again.id)).toString()).toBe('2\n');
    });

    it('joins a run queued or running instead of starting a second one', async () => {
      const { owner, org, email } = await connected();
      const folder = drive.addFolder(email, { name: 'Joined' });
      drive.addFile(email, { name: 'one.txt', parentId: folder, content: txt('one') });
      const config = await configure(org, owner.user.id, folder);
      const queue = t.get<Queue>(getQueueToken(QueueName.DriveSync));
      const runs = t.get<DriveSyncQueue>(DriveSyncQueue);
      await queue.pause(true);
      let first: string, second: string;
      try {
        first = await runs.enqueue(org, config, owner.user.id);
        second = await runs.enqueue(org, config, owner.user.id);
      } finally {
        await queue.resume(true);
      }
      expect(second).toBe(first);
      await eventually(async () => {
        const done = await history(config);
        expect(done.map((r) => [r.id, r.status])).toEqual([[first, 'completed']]);
        return true;
      });
    });

    it('answers a run that has not ended within the wait as running; its history entry tells the end', async () => {
      const { owner, org, email } = await connected();
      const folder = drive.addFolder(email, { name: 'Waiting' });
      drive.addFile(email, { name: 'later.txt', parentId: folder, content: txt('later') });
      const config = await configure(org, owner.user.id, folder);
      const queue = t.get<Queue>(getQueueToken(QueueName.DriveSync));
      const syncs = t.get<DriveSyncs>(DriveSyncs);
      await queue.pause(true);
      syncs.waitMs = 300;
      try {
        expect(await sync(owner.agent, org)).toEqual([
          { configurationId: config, status: 'running', ...counts(0, 0, 0, 0) },
        ]);
      } finally {
        syncs.waitMs = SYNC_WAIT_MS;
        await queue.resume(true);
      }
      await eventually(async () => {
        const [run] = await history(config);
        expect(run).toMatchObject({ status: 'completed', ...counts(1, 0, 0, 0) });
        return true;
      });
    });

    it('answers the run as failed when the drive refuses the grant, and notes it on the connection', async () => {
      const { owner, org, email } = await connected();
      const folder = drive.addFolder(email, { name: 'Revoked' });
      drive.addFile(email, { name: 'a.txt', parentId: folder, content: txt('a') });
      const config = await configure(org, owner.user.id, folder);
      drive.revokeGrantsOf(email);
      expect(await sync(owner.agent, org)).toEqual([
        { configurationId: config, status: 'failed', ...counts(0, 0, 0, 0) },
      ]);
      expect((await history(config))[0]).toMatchObject({
        status: 'failed',
        errorMessage: GRANT_REFUSED,
      });
      const connection = await db.getRepository(DriveConnection).findOneByOrFail({
        organizationId: org,
      });
      expect(connection.syncError).toBe(GRANT_REFUSED);
    });

    it('runs every enabled configuration, or the one named even disabled; never a deleted one', async () => {
      const { owner, org, email } = await connected();
      const folder = drive.addFolder(email, { name: 'Several' });
      drive.addFile(email, { name: 'x.txt', parentId: folder, content: txt('x') });
      const enabled = await configure(org, owner.user.id, folder, { targetDataRoomPath: 'A' });
      const disabled = await configure(org, owner.user.id, folder, {
        targetDataRoomPath: 'B',
        syncEnabled: false,
      });
      const deleted = await configure(org, owner.user.id, folder, {
        targetDataRoomPath: 'C',
        deletedAt: new Date(),
      });
      expect((await sync(owner.agent, org)).map((r) => r.configurationId)).toEqual([enabled]);
      expect(await sync(owner.agent, org, disabled)).toEqual([
        { configurationId: disabled, status: 'completed', ...counts(1, 0, 0, 0) },
      ]);
      await owner.agent
        .post(syncPath(org))
        .send({ organization: org, configurationId: deleted })
        .expect(404)
        .expect((res) => expect(res.body).toEqual(ERROR_BODIES[404]));

      // A run queued before its configuration was deleted does not run either.
      await t.get<DriveSyncRunner>(DriveSyncRunner).run({
        runId: randomUUID(),
        organizationId: org,
        configurationId: deleted,
        triggeredByUserId: owner.user.id,
        triggeredAt: Date.now(),
      });
      expect(await history(deleted)).toEqual([]);
      expect((await list(owner.agent, org)).entries.map((e) => e.name)).not.toContain('C');
    });

    it('refuses what it cannot do: another organization, a foreign or unknown configuration, no connection, no session, no permission', async () => {
      const { owner, org, email } = await connected();
      const other = await connected();
      const foreign = await configure(other.org, other.owner.user.id, drive.rootIdOf(other.email));
      await configure(org, owner.user.id, drive.rootIdOf(email));
      const post = (agent: Agent, body: object) => agent.post(syncPath(org)).send(body);

      const mismatch = await post(owner.agent, { organization: other.org }).expect(400);
      expect(mismatch.body).toMatchObject({ error: 'Bad Request' });
      await post(owner.agent, { organization: org, configurationId: 'nope' }).expect(400);
      for (const configurationId of [foreign, randomUUID()]) {
        await post(owner.agent, { organization: org, configurationId })
          .expect(404)
          .expect((res) => expect(res.body).toEqual(ERROR_BODIES[404]));
      }
      await t.http.post(syncPath(org)).send({ organization: org }).expect(401);
      const viewer = await memberAgent(t, owner.agent, org, 'Viewer');
      await post(viewer.agent, { organization: org }).expect(403);
      const editor = await memberAgent(t, owner.agent, org, 'Editor');
      expect(await sync(editor.agent, org)).toHaveLength(1);
      // Another organization's member is refused before anything is said of its configurations.
      await other.owner.agent.post(syncPath(org)).send({ organization: org }).expect(403);

      const unconnected = await loggedInAgent(t);
      const lonely = await createOrg(unconnected.agent);
      const res = await unconnected.agent
        .post(syncPath(lonely.id))
        .send({ organization: lonely.id })
        .expect(409);
      expect(res.body).toMatchObject({ key: 'driveNotConnected' });
    });

    it('answers 500 driveNotConfigured naming the missing variable, after the permission', async () => {
      const unconfigured = await createTestApp({
        env: { ...drive.env(), IDP_DRIVE_SYNC_REDIRECT_URI: '', STORAGE_DIR: storage.dir },
        database: t.database,
        redisPrefix: t.redisPrefix,
      });
      try {
        const owner = await loggedInAgent(unconfigured);
        const org = await createOrg(owner.agent);
        const res = await owner.agent
          .post(syncPath(org.id))
          .send({ organization: org.id })
          .expect(500);
        expect(res.body).toMatchObject({ key: 'driveNotConfigured' });
        expect(res.body.message).toContain('IDP_DRIVE_SYNC_REDIRECT_URI');
        const viewer = await memberAgent(unconfigured, owner.agent, org.id, 'Viewer');
        await viewer.agent.post(syncPath(org.id)).send({ organization: org.id }).expect(403);
      } finally {
        await unconfigured.close({ keepData: true });
      }
    });

    it('records each synced file as document.uploaded: the activity log and webhooks get it', async () => {
      const { owner, org, email } = await connected();
      const endpoint = await registerEndpoint(owner.agent, org, receiver, {
        path: `/sync-${org}`,
        events: ['document.uploaded'],
      });
      expect(endpoint.id).toEqual(expect.any(String));
      const folder = drive.addFolder(email, { name: 'Events' });
      const file = drive.addFile(email, { name: 'memo.txt', parentId: folder, content: txt('1') });
      await configure(org, owner.user.id, folder);
      await sync(owner.agent, org);
      drive.updateFile(file, { content: txt('2') });
      await sync(owner.agent, org);

      const delivered = await receivedAt(receiver, `/sync-${org}`, 2);
      const bodies = delivered.map((r) => JSON.parse(r.body) as { type: string; data: unknown });
      expect(bodies.map((b) => b.type)).toEqual(['document.uploaded', 'document.uploaded']);
      expect(JSON.stringify(bodies[1].data)).toContain('memo.txt');
      await eventually(async () => {
        const res = await owner.agent.get(`${base(org)}/action?type=document.`).expect(200);
        const entries = res.body as {
          type: string;
          userId: string;
        }[];
        expect(entries.filter((e) => e.type === 'document.uploaded')).toEqual([
          expect.objectContaining({ userId: owner.user.id }),
          expect.objectContaining({ userId: owner.user.id }),
        ]);
        return true;
      });
    });
  });

  describe('history', () => {
    it('keeps each configuration’s newest 50 entries, cleaned daily', async () => {
      const { owner, org, email } = await connected();
      const mine = await configure(org, owner.user.id, drive.rootIdOf(email));
      const few = await configure(org, owner.user.id, drive.rootIdOf(email), {
        targetDataRoomPath: 'Few',
      });
      const at = (i: number) => new Date(Date.UTC(2020, 0, 1, 0, i));
      const row = (configurationId: string, i: number) => ({
        id: randomUUID(),
        organizationId: org,
        configurationId,
        status: 'completed' as const,
        triggeredAt: at(i),
        startedAt: at(i),
        completedAt: at(i),
      });
      await db
        .getRepository(DriveSyncRun)
        .insert([
          ...Array.from({ length: 57 }, (_, i) => row(mine, i)),
          ...Array.from({ length: 3 }, (_, i) => row(few, i)),
        ]);
      const scheduler = t.get<Scheduler>(Scheduler);
      expect(scheduler.list()).toContainEqual({
        name: 'documents:drive-sync-history-cleanup',
        every: 24 * 3600_000,
      });
      await scheduler.run('documents:drive-sync-history-cleanup');
      const kept = await history(mine);
      expect(kept).toHaveLength(50);
      expect(kept.map((r) => r.triggeredAt)).toEqual(
        Array.from({ length: 50 }, (_, i) => at(56 - i)),
      );
      expect(await history(few)).toHaveLength(3);
    });
  });

  describe('the schedule', () => {
    it('is off at DRIVE_SYNC_INTERVAL_MINUTES=0', async () => {
      const scheduler = t.get<Scheduler>(Scheduler);
      expect(scheduler.list()).toContainEqual({ name: 'documents:drive-sync', every: 0 });
      expect(await scheduler.tick('documents:drive-sync')).toBe(false);
    });

    it('runs as the configuration’s creator, and fails once the creator may no longer edit documents', async () => {
      const { owner, org, email } = await connected();
      const editor: LoggedInUser & { member: { id: string } } = await memberAgent(
        t,
        owner.agent,
        org,
        'Editor',
      );
      const folder = drive.addFolder(email, { name: 'Scheduled' });
      drive.addFile(email, { name: 's.txt', parentId: folder, content: txt('s') });
      const config = await configure(org, editor.user.id, folder);
      const syncs = t.get<DriveSyncs>(DriveSyncs);

      await syncs.queueAll();
      const [done] = await eventually(async () => {
        const runs = await history(config);
        expect(runs.map((r) => r.status)).toEqual(['completed']);
        return runs;
      });
      expect(done).toMatchObject({ triggeredByUserId: null, filesAdded: 1 });
      const [entry] = (await db.query(
        `SELECT created_by_user_id FROM document WHERE organization_id = $1 AND name = 's.txt'`,
        [org],
      )) as { created_by_user_id: string }[];
      expect(entry.created_by_user_id).toBe(editor.user.id);

      await owner.agent
        .patch(`/v1/organization/${org}/member/${editor.member.id}`)
        .send({ role: 'Viewer' })
        .expect(200);
      await syncs.queueAll();
      await eventually(async () => {
        const runs = await history(config);
        expect(runs).toHaveLength(2);
        expect(runs[0]).toMatchObject({
          status: 'failed',
          errorMessage: expect.stringMatching(/may no longer edit documents/),
          filesProcessed: 0,
        });
        return true;
      });
      const configuration = await db
        .getRepository(DriveSyncConfiguration)
        .findOneByOrFail({ id: config });
      expect(configuration.syncError).toMatch(/may no longer edit documents/);
    });

    it('queues each enabled, live configuration of active connections once across two instances', async () => {
      const { owner, org, email } = await connected();
      const folder = drive.addFolder(email, { name: 'Twice' });
      drive.addFile(email, { name: 't.txt', parentId: folder, content: txt('t') });
      const config = await configure(org, owner.user.id, folder);
      const deleted = await configure(org, owner.user.id, folder, {
        targetDataRoomPath: 'Gone',
        deletedAt: new Date(),
      });
      const env = {
        ...drive.env(),
        DRIVE_SYNC_INTERVAL_MINUTES: '60',
        STORAGE_DIR: storage.dir,
        DATA_ROOM_UPLOAD_SIZE_LIMIT_MB: '1',
      };
      const others: TestApp[] = [];
      try {
        for (let i = 0; i < 2; i++) {
          others.push(
            await createTestApp({ env, database: t.database, redisPrefix: t.redisPrefix }),
          );
        }
        const schedulers = others.map((a) => a.get<Scheduler>(Scheduler));
        expect(schedulers[0].list()).toContainEqual({
          name: 'documents:drive-sync',
          every: 60 * 60_000,
        });
        const ticked = await Promise.all(schedulers.map((s) => s.tick('documents:drive-sync')));
        expect(ticked.filter(Boolean)).toHaveLength(1);
        await eventually(async () => {
          expect((await history(config)).map((r) => r.status)).toEqual(['completed']);
          return true;
        });
        expect(await history(deleted)).toEqual([]);
      } finally {
        for (const other of others.reverse()) await other.close({ keepData: true });
      }
    });
  });
});
