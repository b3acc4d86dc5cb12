import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { DriveSyncConfiguration } from '../../../src/documents/drive/store/drive-sync-configuration.entity';
import { FakeDrive } from '../../fakes/drive';
import { FakeGraph } from '../../fakes/graph';
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
import { tempStorage } from '../../support/temp-storage';
import { loggedInAgent } from '../../support/users';

const storage = tempStorage();
const base = (org: string) => `/v1/organization/${org}`;

describe('cloud-drive sync into the productivity-suite store (issue 37)', () => {
  let t: TestApp;
  let drive: FakeDrive;
  let graph: FakeGraph;
  let db: DataSource;

  beforeAll(async () => {
    drive = await FakeDrive.start();
    graph = await FakeGraph.start();
    t = await createTestApp({
      env: {
        ...drive.env(),
        ...graph.env(),
        DRIVE_SYNC_INTERVAL_MINUTES: '0',
        STORAGE_DIR: storage.dir,
        DATA_ROOM_UPLOAD_SIZE_LIMIT_MB: '8',
      },
    });
    db = t.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await drive.close();
    await graph.close();
    storage.remove();
  });

  /** A suite organization whose drive (a new account's) is connected, its owner logged in. */
  async function connected() {
    const owner = await loggedInAgent(t);
    const created = await owner.agent
      .post('/v1/organization')
      .send({ name: 'Suite Sync Inc.', documentStore: 'suite' })
      .expect(201);
    expect(created.body.documentStore).toBe('suite');
    const org = (created.body as { id: string }).id;
    const email = await connectDrive(t, drive, org, owner.user.id);
    return { owner, org, email };
  }

  const configure = (
    org: string,
    createdByUserId: string,
    idpFolderId: string,
    options?: Partial<DriveSyncConfiguration>,
  ) => configureSync(db, org, createdByUserId, idpFolderId, options);
  const sync = (agent: Agent, org: string) => syncNow(agent, org);
  const list = async (agent: Agent, org: string) => (await listDocuments(agent, org)).entries;
  const content = documentContent;

  const uploadedEvents = async (org: string) =>
    (
      (await db.query(
        `SELECT count(*)::int AS n FROM outbox_event WHERE organization_id = $1 AND type = 'document.uploaded'`,
        [org],
      )) as { n: number }[]
    )[0].n;

  it('adds new files to the suite (subfolders as its folders), skips them next, and updates a changed one in place', async () => {
    const { owner, org, email } = await connected();
    const folder = drive.addFolder(email, { name: 'Board' });
    const sub = drive.addFolder(email, { name: 'Minutes', parentId: folder });
    drive.addFile(email, { name: 'deck.pdf', parentId: folder, content: pdf('deck') });
    const notes = drive.addFile(email, { name: 'notes.txt', parentId: folder, content: txt('v1') });
    drive.addFile(email, { name: 'march.txt', parentId: sub, content: txt('march') });
    const config = await configure(org, owner.user.id, folder, {
      targetDataRoomPath: 'Drive/Board',
      syncSubfolders: true,
    });

    expect(await sync(owner.agent, org)).toEqual([
      { configurationId: config, status: 'completed', ...counts(3, 0, 0, 0) },
    ]);
    const first = await list(owner.agent, org);
    const byName = new Map(first.map((e) => [e.name, e]));
    expect([...byName.keys()].sort()).toEqual(
      ['Board', 'Drive', 'Minutes', 'deck.pdf', 'march.txt', 'notes.txt'].sort(),
    );
    expect(byName.get('Board')!.parentFolder).toBe(byName.get('Drive')!.id);
    expect(byName.get('march.txt')!.parentFolder).toBe(byName.get('Minutes')!.id);
    expect(byName.get('Minutes')!.parentFolder).toBe(byName.get('Board')!.id);
    const inGraph = graph.itemAt(`Ledgerline/${org}/Drive/Board/notes.txt`);
    expect(inGraph?.data?.toString()).toBe('v1\n');
    expect(graph.itemAt(`Ledgerline/${org}/Drive/Board/Minutes/march.txt`)?.folder).toBe(false);
    expect(await uploadedEvents(org)).toBe(3);
    // Nothing went to the data room.
    expect(await db.query('SELECT id FROM document WHERE organization_id = $1', [org])).toEqual([]);

    expect(await sync(owner.agent, org)).toEqual([
      { configurationId: config, status: 'completed', ...counts(0, 0, 3, 0) },
    ]);

    drive.updateFile(notes, { content: txt('v2') });
    const before = graph.requests.length;
    expect(await sync(owner.agent, org)).toEqual([
      { configurationId: config, status: 'completed', ...counts(0, 1, 2, 0) },
    ]);
    const after = await list(owner.agent, org);
    expect(after.map((e) => e.id).sort()).toEqual(first.map((e) => e.id).sort());
    expect((await content(owner.agent, org, byName.get('notes.txt')!.id)).toString()).toBe('v2\n');
    // The same drive item, its content replaced by a simple PUT.
    expect(graph.itemAt(`Ledgerline/${org}/Drive/Board/notes.txt`)?.id).toBe(inGraph!.id);
    const replaced = graph.requests
      .slice(before)
      .filter((r) => r.method === 'PUT' && r.path.endsWith(`/items/${inGraph!.id}/content`));
    expect(replaced).toHaveLength(1);
    expect(replaced[0].authorization).toMatch(/^Bearer /);
    expect(await uploadedEvents(org)).toBe(4);
  });

  it('replaces a changed file over 4 MiB through an upload session on the item, chunks without our token', async () => {
    const { owner, org, email } = await connected();
    const folder = drive.addFolder(email, { name: 'Big' });
    const v1 = Buffer.concat([pdf('v1'), Buffer.alloc(5 * MB, 0x20)]);
    const v2 = Buffer.concat([pdf('v2'), Buffer.alloc(6 * MB, 0x20)]);
    const file = drive.addFile(email, { name: 'big.pdf', parentId: folder, content: v1 });
    await configure(org, owner.user.id, folder);
    expect(await sync(owner.agent, org)).toEqual([
      expect.objectContaining({ status: 'completed', ...counts(1, 0, 0, 0) }),
    ]);
    const [entry] = await list(owner.agent, org);
    const item = graph.itemAt(`Ledgerline/${org}/big.pdf`)!;

    drive.updateFile(file, { content: v2 });
    const before = graph.requests.length;
    expect(await sync(owner.agent, org)).toEqual([
      expect.objectContaining({ status: 'completed', ...counts(0, 1, 0, 0) }),
    ]);
    const made = graph.requests.slice(before);
    const session = made.filter((r) => r.path.endsWith(`/items/${item.id}/createUploadSession`));
    expect(session).toHaveLength(1);
    expect(session[0].authorization).toMatch(/^Bearer /);
    expect(made.some((r) => r.method === 'PUT' && r.path.endsWith('/content'))).toBe(false);
    const chunks = made.filter((r) => r.path.startsWith('/upload/'));
    expect(chunks.map((c) => c.contentRange)).toEqual([
      `bytes 0-${5 * MB - 1}/${v2.length}`,
      `bytes ${5 * MB}-${v2.length - 1}/${v2.length}`,
    ]);
    expect(chunks.every((c) => c.authorization === undefined)).toBe(true);
    expect((await list(owner.agent, org)).map((e) => e.id)).toEqual([entry.id]);
    expect(graph.itemAt(`Ledgerline/${org}/big.pdf`)!.id).toBe(item.id);
    expect((await content(owner.agent, org, entry.id)).equals(v2)).toBe(true);
  });

  it('counts a name taken in the suite as failed; the run completes and the rest lands', async () => {
    const { owner, org, email } = await connected();
    const folder = drive.addFolder(email, { name: 'Taken' });
    drive.addFile(email, { name: 'good.txt', parentId: folder, content: txt('good') });
    drive.addFile(email, { name: 'taken.txt', parentId: folder, content: txt('from drive') });
    await owner.agent
      .post(`${base(org)}/document`)
      .attach('file', txt('mine'), 'Taken.TXT')
      .expect(201);
    const config = await configure(org, owner.user.id, folder);
    expect(await sync(owner.agent, org)).toEqual([
      { configurationId: config, status: 'completed', ...counts(1, 0, 0, 1) },
    ]);
    expect((await list(owner.agent, org)).map((e) => e.name).sort()).toEqual([
      'Taken.TXT',
      'good.txt',
    ]);
    expect(graph.itemAt(`Ledgerline/${org}/Taken.TXT`)?.data?.toString()).toBe('mine\n');
  });

  it('adds a changed file again when its document was deleted from the suite, through the routes or in the drive itself', async () => {
    const { owner, org, email } = await connected();
    const folder = drive.addFolder(email, { name: 'Returns' });
    const routed = drive.addFile(email, { name: 'r.txt', parentId: folder, content: txt('1') });
    const direct = drive.addFile(email, { name: 'd.txt', parentId: folder, content: txt('1') });
    await configure(org, owner.user.id, folder);
    await sync(owner.agent, org);
    const first = new Map((await list(owner.agent, org)).map((e) => [e.name, e.id]));
    await owner.agent.delete(`${base(org)}/document/${first.get('r.txt')}`).expect(200);
    graph.items.delete(graph.itemAt(`Ledgerline/${org}/d.txt`)!.id);
    drive.updateFile(routed, { content: txt('2') });
    drive.updateFile(direct, { content: txt('2') });

    expect(await sync(owner.agent, org)).toEqual([
      expect.objectContaining({ status: 'completed', ...counts(2, 0, 0, 0) }),
    ]);
    const again = new Map((await list(owner.agent, org)).map((e) => [e.name, e.id]));
    expect([...again.keys()].sort()).toEqual(['d.txt', 'r.txt']);
    for (const name of ['d.txt', 'r.txt']) {
      expect(again.get(name)).not.toBe(first.get(name));
      expect((await content(owner.agent, org, again.get(name)!)).toString()).toBe('2\n');
    }
  });
});
