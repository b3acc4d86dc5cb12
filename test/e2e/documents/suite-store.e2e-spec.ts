import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { FakeGraph } from '../../fakes/graph';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { tempStorage } from '../../support/temp-storage';
import { bytes, ISO, MISSING, pdf, txt, UUID } from './upload-fixtures';

const base = (org: string) => `/v1/organization/${org}`;

interface Entry {
  id: string;
  name: string;
  type: string;
  parentFolder: string | null;
  size?: number;
  contentType?: string;
  created: string;
}

const upload = (
  agent: Agent,
  org: string,
  files: [Buffer, string][],
  options: { parentFolder?: string; many?: boolean } = {},
) => {
  let req = agent.post(`${base(org)}/document${options.many ? '/many' : ''}`);
  if (options.parentFolder) req = req.field('parentFolder', options.parentFolder);
  for (const [content, name] of files) req = req.attach('file', content, name);
  return req;
};

describe('suite store without MICROSOFT_*', () => {
  const storage = tempStorage();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { STORAGE_DIR: storage.dir } });
  });
  afterAll(async () => {
    await t.close();
    storage.remove();
  });

  it('is absent: organizations keep the data room, document/many is an unknown path, suite is refused', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const got = await owner.agent.get(base(org.id)).expect(200);
    expect(got.body.documentStore).toBe('dataRoom');
    const unknown = await owner.agent.get('/v1/no-such-route').expect(404);
    const many = await upload(owner.agent, org.id, [[pdf(), 'a.pdf']], { many: true }).expect(404);
    expect(many.body).toEqual(unknown.body);
    const refused = await owner.agent
      .post('/v1/organization')
      .send({ name: 'Suite Inc.', documentStore: 'suite' })
      .expect(400);
    expect(JSON.stringify(refused.body)).toContain('not configured');
    await owner.agent.patch(base(org.id)).send({ documentStore: 'suite' }).expect(400);
    await owner.agent
      .post('/v1/organization')
      .send({ name: 'X', documentStore: 'drive' })
      .expect(400);
    // The data room works as before.
    await upload(owner.agent, org.id, [[pdf(), 'a.pdf']]).expect(201);
  });
});

describe('suite store (Microsoft Graph)', () => {
  const storage = tempStorage();
  let graph: FakeGraph;
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    graph = await FakeGraph.start();
    t = await createTestApp({
      env: { ...graph.env(), STORAGE_DIR: storage.dir, DATA_ROOM_UPLOAD_SIZE_LIMIT_MB: '8' },
    });
    db = t.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await graph.close();
    storage.remove();
  });

  async function suiteOrg(name = 'Suite Inc.') {
    const owner = await loggedInAgent(t);
    const res = await owner.agent
      .post('/v1/organization')
      .send({ name, documentStore: 'suite' })
      .expect(201);
    expect(res.body.documentStore).toBe('suite');
    return { owner, org: res.body as { id: string } };
  }

  const list = async (agent: Agent, org: string, query = '') =>
    (await agent.get(`${base(org)}/document${query}`).expect(200)).body as Entry[];

  const events = async (org: string) =>
    (
      (await db.query(
        'SELECT type FROM outbox_event WHERE organization_id = $1 ORDER BY created, id',
        [org],
      )) as { type: string }[]
    )
      .map((e) => e.type)
      .filter((type) => type.startsWith('document.') || type.startsWith('folder.'));

  it('defaults to the data room outside production, even when configured', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    expect((await owner.agent.get(base(org.id)).expect(200)).body.documentStore).toBe('dataRoom');
  });

  it('lists, uploads, makes folders, moves, renames, serves and deletes through the drive', async () => {
    const { owner, org } = await suiteOrg();
    expect(await list(owner.agent, org.id)).toEqual([]);
    // The organization's own folder under the root folder.
    expect(graph.itemAt(`Ledgerline/${org.id}`)?.folder).toBe(true);

    const [a] = (await upload(owner.agent, org.id, [[pdf('a'), 'a.pdf']]).expect(201))
      .body as Entry[];
    expect(a).toEqual({
      id: expect.stringMatching(UUID),
      name: 'a.pdf',
      type: 'file',
      parentFolder: null,
      size: pdf('a').length,
      contentType: 'application/pdf',
      created: expect.stringMatching(ISO),
    });
    expect(graph.itemAt(`Ledgerline/${org.id}/a.pdf`)?.data).toEqual(pdf('a'));
    // POST document takes one file here; several go to document/many.
    const two = await upload(owner.agent, org.id, [
      [pdf(), 'x.pdf'],
      [pdf(), 'y.pdf'],
    ]).expect(400);
    expect(JSON.stringify(two.body)).toContain('document/many');

    const board = (
      await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({ name: 'Board' })
        .expect(201)
    ).body as Entry;
    expect(board).toMatchObject({ type: 'folder', parentFolder: null, name: 'Board' });
    const many = (
      await upload(
        owner.agent,
        org.id,
        [
          [pdf('b'), 'b.pdf'],
          [txt('c'), 'c.txt'],
        ],
        { many: true, parentFolder: board.id },
      ).expect(201)
    ).body as Entry[];
    expect(many.map((e) => [e.name, e.parentFolder])).toEqual([
      ['b.pdf', board.id],
      ['c.txt', board.id],
    ]);

    // Folders first, then by name; the whole tree flat, or one folder.
    expect((await list(owner.agent, org.id)).map((e) => e.name)).toEqual([
      'Board',
      'a.pdf',
      'b.pdf',
      'c.txt',
    ]);
    expect((await list(owner.agent, org.id, '?parentFolder=root')).map((e) => e.name)).toEqual([
      'Board',
      'a.pdf',
    ]);
    expect(await list(owner.agent, org.id, `?parentFolder=${board.id}`)).toEqual(many);
    await owner.agent.get(`${base(org.id)}/document?parentFolder=${a.id}`).expect(400);
    await owner.agent.get(`${base(org.id)}/document?parentFolder=${MISSING}`).expect(404);

    // Content: attachment, inline; a folder has none.
    const content = await bytes(owner.agent.get(`${base(org.id)}/document/${a.id}/content`)).expect(
      200,
    );
    expect(content.body).toEqual(pdf('a'));
    expect(content.headers['content-type']).toBe('application/pdf');
    expect(content.headers['content-disposition']).toMatch(/^attachment; filename="a.pdf"/);
    const inline = await bytes(
      owner.agent.get(`${base(org.id)}/document/${a.id}/content/a.pdf`),
    ).expect(200);
    expect(inline.headers['content-disposition']).toMatch(/^inline/);
    await owner.agent.get(`${base(org.id)}/document/${board.id}/content`).expect(404);
    // The download URL Graph redirects to was read without our token.
    const download = graph.requests.filter((r) => r.path.startsWith('/download/'));
    expect(download.length).toBeGreaterThan(0);
    expect(download.every((r) => r.authorization === undefined)).toBe(true);

    // Move and rename in one; a file keeps its type.
    const moved = (
      await owner.agent
        .post(`${base(org.id)}/document/${a.id}/move`)
        .send({ name: 'a2.pdf', parentFolder: board.id })
        .expect(200)
    ).body as Entry;
    expect(moved).toMatchObject({ id: a.id, name: 'a2.pdf', parentFolder: board.id });
    expect(graph.itemAt(`Ledgerline/${org.id}/Board/a2.pdf`)).toBeDefined();
    await owner.agent
      .post(`${base(org.id)}/document/${a.id}/move`)
      .send({ name: 'a2.png' })
      .expect(400);
    // Back to the top level.
    expect(
      (
        await owner.agent
          .post(`${base(org.id)}/document/${a.id}/move`)
          .send({ name: 'a2.pdf', parentFolder: null })
          .expect(200)
      ).body.parentFolder,
    ).toBeNull();

    // A folder cannot move into its own subtree.
    const sub = (
      await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({ name: 'Sub', parentFolder: board.id })
        .expect(201)
    ).body as Entry;
    await owner.agent
      .post(`${base(org.id)}/document/${board.id}/move`)
      .send({ name: 'Board', parentFolder: sub.id })
      .expect(409);
    await owner.agent
      .post(`${base(org.id)}/document/${board.id}/move`)
      .send({ name: 'Board', parentFolder: board.id })
      .expect(409);

    // Taken names, whatever their case: nothing more is stored.
    const stored = graph.items.size;
    await upload(owner.agent, org.id, [[pdf(), 'B.PDF']], { parentFolder: board.id }).expect(409);
    await upload(
      owner.agent,
      org.id,
      [
        [pdf(), 'n.pdf'],
        [pdf(), 'N.pdf'],
      ],
      { many: true },
    ).expect(409);
    await upload(
      owner.agent,
      org.id,
      [
        [pdf(), 'fresh.pdf'],
        [pdf(), 'A2.pdf'],
      ],
      { many: true },
    ).expect(409);
    await owner.agent
      .post(`${base(org.id)}/folder`)
      .send({ name: 'board' })
      .expect(409);
    await owner.agent
      .post(`${base(org.id)}/document/${a.id}/move`)
      .send({ name: 'B.pdf', parentFolder: board.id })
      .expect(409);
    expect(graph.items.size).toBe(stored);

    // Delete: a folder with entries only recursively.
    await owner.agent.delete(`${base(org.id)}/document/${board.id}`).expect(409);
    await owner.agent.delete(`${base(org.id)}/document/${board.id}?recursive=maybe`).expect(400);
    expect(
      (await owner.agent.delete(`${base(org.id)}/document/${board.id}?recursive=true`).expect(200))
        .body,
    ).toEqual({});
    expect((await list(owner.agent, org.id)).map((e) => e.name)).toEqual(['a2.pdf']);
    await owner.agent.get(`${base(org.id)}/document/${many[0].id}/content`).expect(404);
    await owner.agent.delete(`${base(org.id)}/document/${board.id}`).expect(404);
    await owner.agent.delete(`${base(org.id)}/document/${a.id}`).expect(200);
    expect(await list(owner.agent, org.id)).toEqual([]);

    // The data room's events, so activity and webhooks see them.
    expect(await events(org.id)).toEqual([
      'document.uploaded',
      'folder.created',
      'document.uploaded',
      'document.uploaded',
      'document.moved',
      'document.moved',
      'folder.created',
      'document.deleted',
      'document.deleted',
    ]);
  });

  it('sends a file over 4 MiB in an upload session, its chunks without our token', async () => {
    const { owner, org } = await suiteOrg('Big Inc.');
    const big = Buffer.concat([pdf('big'), Buffer.alloc(6 * 1024 * 1024, 0x20)]);
    const before = graph.requests.length;
    const [entry] = (
      await upload(owner.agent, org.id, [[big, 'big.pdf']], { many: true }).expect(201)
    ).body as Entry[];
    expect(entry.size).toBe(big.length);
    const made = graph.requests.slice(before);
    const session = made.filter((r) => r.path.endsWith(':/createUploadSession'));
    expect(session).toHaveLength(1);
    expect(session[0].authorization).toMatch(/^Bearer /);
    expect(made.some((r) => r.path.endsWith(':/content') && r.method === 'PUT')).toBe(false);
    const chunks = made.filter((r) => r.path.startsWith('/upload/'));
    expect(chunks.map((c) => c.contentRange)).toEqual([
      `bytes 0-${5 * 1024 * 1024 - 1}/${big.length}`,
      `bytes ${5 * 1024 * 1024}-${big.length - 1}/${big.length}`,
    ]);
    expect(chunks.every((c) => c.authorization === undefined)).toBe(true);
    const content = await bytes(
      owner.agent.get(`${base(org.id)}/document/${entry.id}/content`),
    ).expect(200);
    expect(content.body.equals(big)).toBe(true);
    // Over DATA_ROOM_UPLOAD_SIZE_LIMIT_MB: 413, nothing sent.
    const sent = graph.requests.length;
    await upload(owner.agent, org.id, [[Buffer.alloc(9 * 1024 * 1024, 0x20), 'huge.txt']]).expect(
      413,
    );
    expect(graph.requests.length).toBe(sent);
  });

  it('applies the suite’s permissions: canViewOrganization reads, canEditDocuments writes', async () => {
    const { owner, org } = await suiteOrg('Perm Inc.');
    const [doc] = (await upload(owner.agent, org.id, [[pdf(), 'p.pdf']]).expect(201))
      .body as Entry[];
    const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
    // A Shareholder has canViewOrganization only: list and content allowed here.
    expect((await list(shareholder.agent, org.id)).map((e) => e.name)).toEqual(['p.pdf']);
    await bytes(shareholder.agent.get(`${base(org.id)}/document/${doc.id}/content`)).expect(200);
    await bytes(shareholder.agent.get(`${base(org.id)}/document/${doc.id}/content/p.pdf`)).expect(
      200,
    );
    // Writes need canEditDocuments.
    for (const who of [shareholder, viewer]) {
      await upload(who.agent, org.id, [[pdf(), 'w.pdf']]).expect(403);
      await upload(who.agent, org.id, [[pdf(), 'w.pdf']], { many: true }).expect(403);
      await who.agent
        .post(`${base(org.id)}/folder`)
        .send({ name: 'W' })
        .expect(403);
      await who.agent
        .post(`${base(org.id)}/document/${doc.id}/move`)
        .send({ name: 'w.pdf' })
        .expect(403);
      await who.agent.delete(`${base(org.id)}/document/${doc.id}`).expect(403);
    }
    const [w] = (await upload(editor.agent, org.id, [[pdf(), 'w.pdf']], { many: true }).expect(201))
      .body as Entry[];
    await editor.agent.delete(`${base(org.id)}/document/${w.id}`).expect(200);
    // In a data room organization the Shareholder still cannot read content (canViewDocuments).
    const room = await createOrg(owner.agent, 'Room Inc.');
    const [inRoom] = (await upload(owner.agent, room.id, [[pdf(), 'r.pdf']]).expect(201))
      .body as Entry[];
    const roomShareholder = await memberAgent(t, owner.agent, room.id, 'Shareholder');
    await roomShareholder.agent.get(`${base(room.id)}/document/${inRoom.id}/content`).expect(403);
    // Nobody outside reads or writes it.
    const outsider = await loggedInAgent(t);
    await outsider.agent.get(`${base(org.id)}/document`).expect(403);
    await upload(outsider.agent, org.id, [[pdf(), 'o.pdf']], { many: true }).expect(403);
  });

  it('removes what a failed document/many stored, and answers the drive’s other failures 503', async () => {
    const { owner, org } = await suiteOrg('Half Inc.');
    // The second file's upload fails after the first was stored.
    graph.failNext(/:\/two\.pdf:\/content$/, 500, { method: 'PUT' });
    const res = await upload(
      owner.agent,
      org.id,
      [
        [pdf(), 'one.pdf'],
        [pdf(), 'two.pdf'],
      ],
      { many: true },
    ).expect(503);
    expect(JSON.stringify(res.body)).toContain('productivity-suite store');
    expect(graph.childrenOf(graph.itemAt(`Ledgerline/${org.id}`)!.id)).toEqual([]);
    expect(await list(owner.agent, org.id)).toEqual([]);
    expect(await events(org.id)).toEqual([]);
  });

  it('answers another organization’s document as absent (404)', async () => {
    const { owner, org } = await suiteOrg('A Inc.');
    const [doc] = (await upload(owner.agent, org.id, [[pdf(), 'a.pdf']]).expect(201))
      .body as Entry[];
    const folder = (
      await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({ name: 'F' })
        .expect(201)
    ).body as Entry;
    const other = await suiteOrg('B Inc.');
    const b = other.org.id;
    await other.owner.agent.get(`${base(b)}/document/${doc.id}/content`).expect(404);
    await other.owner.agent.get(`${base(b)}/document/${doc.id}/content/a.pdf`).expect(404);
    await other.owner.agent
      .post(`${base(b)}/document/${doc.id}/move`)
      .send({ name: 'x.pdf' })
      .expect(404);
    await other.owner.agent.delete(`${base(b)}/document/${doc.id}`).expect(404);
    await other.owner.agent
      .post(`${base(b)}/folder`)
      .send({ name: 'x', parentFolder: folder.id })
      .expect(404);
    await upload(other.owner.agent, b, [[pdf(), 'x.pdf']], {
      many: true,
      parentFolder: folder.id,
    }).expect(404);
    await other.owner.agent.get(`${base(b)}/document?parentFolder=${folder.id}`).expect(404);
    // Untouched.
    expect((await list(owner.agent, org.id)).map((e) => e.name)).toEqual(['F', 'a.pdf']);
  });

  it('follows every page of a folder, waits out a 429’s Retry-After, keeps Graph’s 404', async () => {
    const { owner, org } = await suiteOrg('Pages Inc.');
    for (const name of ['1.txt', '2.txt', '3.txt', '4.txt', '5.txt']) {
      await upload(owner.agent, org.id, [[txt(name), name]]).expect(201);
    }
    graph.pageSize = 2;
    try {
      expect((await list(owner.agent, org.id)).map((e) => e.name)).toEqual([
        '1.txt',
        '2.txt',
        '3.txt',
        '4.txt',
        '5.txt',
      ]);
    } finally {
      graph.pageSize = 200;
    }
    graph.failNext(/\/children$/, 429, { method: 'GET', retryAfter: '1' });
    const before = graph.requests.length;
    const started = Date.now();
    expect(await list(owner.agent, org.id, '?parentFolder=root')).toHaveLength(5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(graph.requests.slice(before).filter((r) => r.path.endsWith('/children'))).toHaveLength(
      2,
    );
    // An item deleted in the drive directly: our id answers 404.
    const [first] = await list(owner.agent, org.id);
    graph.items.delete(graph.itemAt(`Ledgerline/${org.id}/${first.name}`)!.id);
    await owner.agent.get(`${base(org.id)}/document/${first.id}/content`).expect(404);
    // One added in the drive directly is listed with an id of ours.
    graph.add(graph.itemAt(`Ledgerline/${org.id}`)!.id, 'direct.txt', txt('direct'));
    const direct = (await list(owner.agent, org.id)).find((e) => e.name === 'direct.txt')!;
    expect(direct.id).toMatch(UUID);
    expect(
      (await bytes(owner.agent.get(`${base(org.id)}/document/${direct.id}/content`)).expect(200))
        .body,
    ).toEqual(txt('direct'));
  });

  it('changes an organization’s documentStore only while it has no documents', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Switch Inc.');
    const toSuite = await owner.agent
      .patch(base(org.id))
      .send({ documentStore: 'suite' })
      .expect(200);
    expect(toSuite.body.documentStore).toBe('suite');
    await upload(owner.agent, org.id, [[pdf(), 's.pdf']]).expect(201);
    const refused = await owner.agent
      .patch(base(org.id))
      .send({ documentStore: 'dataRoom' })
      .expect(409);
    expect(JSON.stringify(refused.body)).toContain('documents');
    expect((await owner.agent.get(base(org.id)).expect(200)).body.documentStore).toBe('suite');
    // The same store again changes nothing and is no conflict.
    await owner.agent.patch(base(org.id)).send({ documentStore: 'suite' }).expect(200);
    // A data room with a folder cannot switch either.
    const room = await createOrg(owner.agent, 'Room Inc.');
    await owner.agent
      .post(`${base(room.id)}/folder`)
      .send({ name: 'F' })
      .expect(201);
    await owner.agent.patch(base(room.id)).send({ documentStore: 'suite' }).expect(409);
    // Without canEditOrganization: 403.
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    await viewer.agent.patch(base(org.id)).send({ documentStore: 'dataRoom' }).expect(403);
  });
});
