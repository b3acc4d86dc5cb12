import type { Agent, Test } from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../../support/app';
import { errorBody } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { sessionSetCookie } from '../../support/sessions';
import { loggedInAgent, registerUser } from '../../support/users';
import { tempStorage } from '../../support/temp-storage';
import { bytes, exe, ISO, MISSING, pdf, png, txt, utf8NamedUpload, UUID } from './upload-fixtures';

const storage = tempStorage();
const base = (org: string) => `/v1/organization/${org}`;

describe('data room', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp({
      env: { STORAGE_DIR: storage.dir, DATA_ROOM_UPLOAD_SIZE_LIMIT_MB: '1' },
    });
    db = t.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    storage.remove();
  });

  async function dataRoom() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    return { owner, org };
  }

  const upload = (agent: Agent, org: string, files: [Buffer, string][], parentFolder?: string) => {
    let req = agent.post(`${base(org)}/document`);
    if (parentFolder) req = req.field('parentFolder', parentFolder);
    for (const [content, name] of files) req = req.attach('file', content, name);
    return req;
  };

  const folder = async (agent: Agent, org: string, name: string, parentFolder?: string | null) => {
    const res = await agent.post(`${base(org)}/folder`).send({ name, parentFolder });
    if (res.status !== 201) throw new Error(`folder: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string; name: string };
  };

  const uploaded = async (agent: Agent, org: string, name: string, parentFolder?: string) => {
    const res = await upload(agent, org, [[pdf(name), name]], parentFolder);
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body[0] as { id: string; name: string };
  };

  const list = async (agent: Agent, org: string, query = '') =>
    (await agent.get(`${base(org)}/document${query}`).expect(200)).body as {
      id: string;
      name: string;
      type: string;
      parentFolder: string | null;
    }[];

  const storedRows = async (org: string) =>
    Number(
      (
        await db.query('SELECT count(*)::int AS n FROM stored_file WHERE organization_id = $1', [
          org,
        ])
      )[0].n,
    );
  const objectsOf = (org: string) => storage.files().filter((f) => f.includes(org));

  const events = async (org: string, type: string) =>
    (await db.query(
      `SELECT actor_user_id AS actor, description, data FROM outbox_event
       WHERE organization_id = $1 AND type = $2 ORDER BY sequence`,
      [org, type],
    )) as { actor: string; description: string; data: { object: any; previous_attributes: any } }[];

  describe('POST .../document', () => {
    it('stores the files at the top level and answers the new entries', async () => {
      const { owner, org } = await dataRoom();
      const res = await upload(owner.agent, org.id, [
        [pdf(), 'Board minutes.pdf'],
        [txt('notes'), 'notes.txt'],
      ]).expect(201);
      expect(res.body).toEqual([
        {
          id: expect.stringMatching(UUID),
          name: 'Board minutes.pdf',
          type: 'file',
          parentFolder: null,
          size: pdf().length,
          contentType: 'application/pdf',
          created: expect.stringMatching(ISO),
        },
        {
          id: expect.stringMatching(UUID),
          name: 'notes.txt',
          type: 'file',
          parentFolder: null,
          size: 5,
          contentType: 'text/plain; charset=utf-8',
          created: expect.stringMatching(ISO),
        },
      ]);
      expect(Object.keys(res.body[0])).toEqual([
        'id',
        'name',
        'type',
        'parentFolder',
        'size',
        'contentType',
        'created',
      ]);
      expect(await list(owner.agent, org.id)).toEqual(res.body);
      expect(objectsOf(org.id)).toHaveLength(2);

      const uploadedEvents = await events(org.id, 'document.uploaded');
      expect(uploadedEvents).toEqual([
        {
          actor: owner.user.id,
          description: 'document Board minutes.pdf: uploaded',
          data: {
            object: { ...res.body[0], organization: org.id },
            previous_attributes: {},
          },
        },
        expect.objectContaining({ description: 'document notes.txt: uploaded' }),
      ]);
    });

    it('puts the files into the folder named by the parentFolder field', async () => {
      const { owner, org } = await dataRoom();
      const contracts = await folder(owner.agent, org.id, 'Contracts');
      const res = await upload(owner.agent, org.id, [[pdf(), 'nda.pdf']], contracts.id).expect(201);
      expect(res.body[0]).toMatchObject({ name: 'nda.pdf', parentFolder: contracts.id });
    });

    it('refuses a request without a file part: missingFileArgument, nothing stored', async () => {
      const { owner, org } = await dataRoom();
      const res = await owner.agent
        .post(`${base(org.id)}/document`)
        .field('note', 'no file here')
        .expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        key: 'missingFileArgument',
        message: expect.any(String),
      });
      await owner.agent
        .post(`${base(org.id)}/document`)
        .send({})
        .expect(400)
        .expect((r) => expect(r.body.key).toBe('missingFileArgument'));
      expect(await storedRows(org.id)).toBe(0);
    });

    it('refuses an extension outside the list, and bytes that are not what the name says', async () => {
      const { owner, org } = await dataRoom();
      for (const [content, name] of [
        [exe(), 'setup.exe'],
        [txt('not an image'), 'photo.png'],
        [exe(), 'report.pdf'],
      ] as [Buffer, string][]) {
        const res = await upload(owner.agent, org.id, [
          [pdf(), 'fine.pdf'],
          [content, name],
        ]).expect(400);
        expect(res.body).toEqual({
          error: 'Bad Request',
          key: 'unsupportedFileExtension',
          message: expect.stringContaining(name),
        });
      }
      expect(await storedRows(org.id)).toBe(0);
      expect(objectsOf(org.id)).toEqual([]);
      expect(await list(owner.agent, org.id)).toEqual([]);
    });

    it('answers 413 for a file over DATA_ROOM_UPLOAD_SIZE_LIMIT_MB and stores nothing', async () => {
      const { owner, org } = await dataRoom();
      const big = Buffer.concat([pdf(), Buffer.alloc(1.5 * 1024 * 1024, 0x20)]);
      const res = await upload(owner.agent, org.id, [
        [pdf(), 'small.pdf'],
        [big, 'big.pdf'],
      ]).expect(413);
      expect(res.body).toEqual({ error: 'Payload Too Large', message: expect.any(String) });
      expect(await storedRows(org.id)).toBe(0);
      expect(objectsOf(org.id)).toEqual([]);
    });

    it('answers 409 for a name already in the folder (whatever its case) and stores nothing', async () => {
      const { owner, org } = await dataRoom();
      await uploaded(owner.agent, org.id, 'Cap Table.pdf');
      const res = await upload(owner.agent, org.id, [
        [pdf(), 'other.pdf'],
        [pdf(), 'cap table.PDF'],
      ]).expect(409);
      expect(res.body).toEqual({
        error: 'Conflict',
        message: expect.stringContaining('Cap Table.pdf'),
      });
      const twice = await upload(owner.agent, org.id, [
        [pdf(), 'twice.pdf'],
        [pdf(), 'TWICE.pdf'],
      ]).expect(409);
      expect(twice.body.message).toContain('TWICE.pdf');
      expect(await storedRows(org.id)).toBe(1);
      expect(objectsOf(org.id)).toHaveLength(1);
      expect((await list(owner.agent, org.id)).map((e) => e.name)).toEqual(['Cap Table.pdf']);
      // The same name in another folder is fine.
      const other = await folder(owner.agent, org.id, 'Archive');
      await upload(owner.agent, org.id, [[pdf(), 'Cap Table.pdf']], other.id).expect(201);
    });

    it('lets one of two parallel uploads of the same name through; the other is 409', async () => {
      const { owner, org } = await dataRoom();
      const results = await Promise.all(
        [1, 2, 3].map(() => upload(owner.agent, org.id, [[pdf(), 'race.pdf']])),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      expect(await storedRows(org.id)).toBe(1);
      expect(objectsOf(org.id)).toHaveLength(1);
    });

    it('refuses a parentFolder that is a file (400), unknown or another organization’s (404)', async () => {
      const { owner, org } = await dataRoom();
      const file = await uploaded(owner.agent, org.id, 'a.pdf');
      await upload(owner.agent, org.id, [[pdf(), 'b.pdf']], file.id).expect(400);
      await upload(owner.agent, org.id, [[pdf(), 'b.pdf']], MISSING)
        .expect(404)
        .expect(errorBody(404));
      const other = await dataRoom();
      const theirs = await folder(other.owner.agent, other.org.id, 'Theirs');
      await upload(owner.agent, org.id, [[pdf(), 'b.pdf']], theirs.id).expect(404);
      await upload(owner.agent, org.id, [[pdf(), 'b.pdf']], 'not-a-uuid').expect(400);
      expect(await storedRows(org.id)).toBe(1);
      expect(await list(other.owner.agent, other.org.id)).toHaveLength(1);
    });
  });

  describe('GET .../document', () => {
    it('lists the whole tree flat (folders first, then by name), or one folder', async () => {
      const { owner, org } = await dataRoom();
      const legal = await folder(owner.agent, org.id, 'Legal');
      const nested = await folder(owner.agent, org.id, 'Contracts', legal.id);
      const inNested = await uploaded(owner.agent, org.id, 'lease.pdf', nested.id);
      const top = await uploaded(owner.agent, org.id, 'a-report.pdf');
      const board = await folder(owner.agent, org.id, 'board');

      const all = await list(owner.agent, org.id);
      expect(all.map((e) => [e.name, e.type, e.parentFolder])).toEqual([
        ['board', 'folder', null],
        ['Contracts', 'folder', legal.id],
        ['Legal', 'folder', null],
        ['a-report.pdf', 'file', null],
        ['lease.pdf', 'file', nested.id],
      ]);
      expect(all.find((e) => e.id === board.id)).toEqual({
        id: board.id,
        name: 'board',
        type: 'folder',
        parentFolder: null,
        created: expect.stringMatching(ISO),
      });
      expect((await list(owner.agent, org.id, '?parentFolder=root')).map((e) => e.id)).toEqual([
        board.id,
        legal.id,
        top.id,
      ]);
      expect(
        (await list(owner.agent, org.id, `?parentFolder=${legal.id}`)).map((e) => e.id),
      ).toEqual([nested.id]);
      expect(
        (await list(owner.agent, org.id, `?parentFolder=${nested.id}`)).map((e) => e.id),
      ).toEqual([inNested.id]);
    });

    it('refuses an unknown folder (404), a file (400), a malformed id and unknown parameters (400)', async () => {
      const { owner, org } = await dataRoom();
      const file = await uploaded(owner.agent, org.id, 'a.pdf');
      await owner.agent.get(`${base(org.id)}/document?parentFolder=${MISSING}`).expect(404);
      await owner.agent.get(`${base(org.id)}/document?parentFolder=${file.id}`).expect(400);
      await owner.agent.get(`${base(org.id)}/document?parentFolder=nope`).expect(400);
      await owner.agent.get(`${base(org.id)}/document?folder=${file.id}`).expect(400);
      const other = await dataRoom();
      const theirs = await folder(other.owner.agent, other.org.id, 'Theirs');
      await owner.agent.get(`${base(org.id)}/document?parentFolder=${theirs.id}`).expect(404);
    });

    it('answers a new list after every change (ETag follows the data)', async () => {
      const { owner, org } = await dataRoom();
      const first = await owner.agent.get(`${base(org.id)}/document`).expect(200);
      await owner.agent
        .get(`${base(org.id)}/document`)
        .set('If-None-Match', first.headers.etag)
        .expect(304);
      const file = await uploaded(owner.agent, org.id, 'a.pdf');
      const second = await owner.agent
        .get(`${base(org.id)}/document`)
        .set('If-None-Match', first.headers.etag)
        .expect(200);
      expect(second.body).toHaveLength(1);
      await owner.agent.delete(`${base(org.id)}/document/${file.id}`).expect(200);
      expect(await list(owner.agent, org.id)).toEqual([]);
    });
  });

  describe('GET .../document/:document/content', () => {
    it('sends the file as an attachment with its type, length, UTF-8 name and nosniff', async () => {
      const { owner, org } = await dataRoom();
      const content = pdf('März');
      const multipart = utf8NamedUpload('Bericht – März.pdf', content);
      const [entry] = (
        await owner.agent
          .post(`${base(org.id)}/document`)
          .type(multipart.type)
          .send(multipart.body)
          .expect(201)
      ).body;
      expect(entry.name).toBe('Bericht – März.pdf');
      const res = await bytes(
        owner.agent.get(`${base(org.id)}/document/${entry.id}/content`),
      ).expect(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-length']).toBe(String(content.length));
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      // `filename` is an ASCII fallback; clients use the UTF-8 `filename*`.
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="Bericht _ Marz.pdf"; filename*=UTF-8''Bericht%20%E2%80%93%20M%C3%A4rz.pdf`,
      );
      expect(Buffer.compare(res.body, content)).toBe(0);
    });

    it('encodes a name given by a rename the same way', async () => {
      const { owner, org } = await dataRoom();
      const file = await uploaded(owner.agent, org.id, 'report.pdf');
      await owner.agent
        .post(`${base(org.id)}/document/${file.id}/move`)
        .send({ name: '報告 "2025".pdf' })
        .expect(200);
      const res = await bytes(
        owner.agent.get(`${base(org.id)}/document/${file.id}/content/x.pdf`),
      ).expect(200);
      expect(res.headers['content-disposition']).toBe(
        `inline; filename="__ _2025_.pdf"; filename*=UTF-8''%E5%A0%B1%E5%91%8A%20%222025%22.pdf`,
      );
    });

    it('shows a PDF or an image inline at .../content/:name; anything else stays an attachment', async () => {
      const { owner, org } = await dataRoom();
      const [doc, image, text] = (
        await upload(owner.agent, org.id, [
          [pdf(), 'deck.pdf'],
          [png(), 'logo.png'],
          [txt('<script>alert(1)</script>'), 'page.txt'],
        ]).expect(201)
      ).body;
      const inline = await bytes(
        owner.agent.get(`${base(org.id)}/document/${doc.id}/content/deck.pdf`),
      ).expect(200);
      expect(inline.headers['content-disposition']).toBe('inline; filename="deck.pdf"');
      expect(inline.headers['content-type']).toBe('application/pdf');
      const img = await bytes(
        owner.agent.get(`${base(org.id)}/document/${image.id}/content/whatever-name`),
      ).expect(200);
      expect(img.headers['content-disposition']).toBe('inline; filename="logo.png"');
      expect(img.headers['content-type']).toBe('image/png');
      const plain = await bytes(
        owner.agent.get(`${base(org.id)}/document/${text.id}/content/page.txt`),
      ).expect(200);
      expect(plain.headers['content-disposition']).toBe('attachment; filename="page.txt"');
      expect(plain.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(plain.headers['x-content-type-options']).toBe('nosniff');
    });

    it('names the download after the entry’s current name', async () => {
      const { owner, org } = await dataRoom();
      const file = await uploaded(owner.agent, org.id, 'draft.pdf');
      await owner.agent
        .post(`${base(org.id)}/document/${file.id}/move`)
        .send({ name: 'final.pdf' })
        .expect(200);
      const res = await bytes(
        owner.agent.get(`${base(org.id)}/document/${file.id}/content`),
      ).expect(200);
      expect(res.headers['content-disposition']).toBe('attachment; filename="final.pdf"');
    });

    it('answers 404 for a folder, a deleted document, an unknown one and a malformed id (400)', async () => {
      const { owner, org } = await dataRoom();
      const dir = await folder(owner.agent, org.id, 'Folder');
      await owner.agent.get(`${base(org.id)}/document/${dir.id}/content`).expect(404);
      await owner.agent.get(`${base(org.id)}/document/${dir.id}/content/x.pdf`).expect(404);
      const file = await uploaded(owner.agent, org.id, 'gone.pdf');
      await owner.agent.delete(`${base(org.id)}/document/${file.id}`).expect(200);
      await owner.agent
        .get(`${base(org.id)}/document/${file.id}/content`)
        .expect(404)
        .expect(errorBody(404));
      await owner.agent.get(`${base(org.id)}/document/${MISSING}/content`).expect(404);
      await owner.agent.get(`${base(org.id)}/document/nope/content`).expect(400);
    });
  });

  describe('POST .../folder', () => {
    it('creates a folder (top level or nested) and emits folder.created', async () => {
      const { owner, org } = await dataRoom();
      const res = await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({ name: '  Board  ', parentFolder: null })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Board',
        type: 'folder',
        parentFolder: null,
        created: expect.stringMatching(ISO),
      });
      const nested = await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({ name: '2025', parentFolder: res.body.id })
        .expect(201);
      expect(nested.body.parentFolder).toBe(res.body.id);
      await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({ name: 'No parent' })
        .expect(201);
      expect(await events(org.id, 'folder.created')).toEqual([
        {
          actor: owner.user.id,
          description: 'folder Board: created',
          data: { object: { ...res.body, organization: org.id }, previous_attributes: {} },
        },
        expect.objectContaining({ description: 'folder 2025: created' }),
        expect.objectContaining({ description: 'folder No parent: created' }),
      ]);
    });

    it('answers 409 for a name taken in the folder, whatever its case', async () => {
      const { owner, org } = await dataRoom();
      await folder(owner.agent, org.id, 'Board');
      await uploaded(owner.agent, org.id, 'minutes.pdf');
      const res = await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({ name: 'BOARD', parentFolder: null })
        .expect(409);
      expect(res.body).toEqual({ error: 'Conflict', message: expect.stringContaining('Board') });
      await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({ name: 'Minutes.PDF' })
        .expect(409);
    });

    it.each([
      ['', 'empty'],
      ['   ', 'blank'],
      ['a/b', 'a slash'],
      ['a\\b', 'a backslash'],
      ['tab\there', 'a control character'],
      ['..', 'a dot name'],
      ['x'.repeat(256), 'too long'],
      [42, 'not a string'],
    ] as [unknown, string][])('refuses the name %j (%s) with 400', async (name) => {
      const { owner, org } = await dataRoom();
      const res = await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({ name })
        .expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: expect.stringContaining('name') });
    });

    it('accepts 255 characters, and refuses a missing name and a bad parentFolder', async () => {
      const { owner, org } = await dataRoom();
      await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({ name: 'é'.repeat(255) })
        .expect(201);
      await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({})
        .expect(400);
      const file = await uploaded(owner.agent, org.id, 'a.pdf');
      await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({ name: 'x', parentFolder: file.id })
        .expect(400);
      await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({ name: 'x', parentFolder: MISSING })
        .expect(404);
      await owner.agent
        .post(`${base(org.id)}/folder`)
        .send({ name: 'x', parentFolder: 'nope' })
        .expect(400);
    });
  });

  describe('POST .../document/:document/move', () => {
    it('renames, moves, and moves back to the top level; emits document.moved with the previous values', async () => {
      const { owner, org } = await dataRoom();
      const legal = await folder(owner.agent, org.id, 'Legal');
      const file = await uploaded(owner.agent, org.id, 'nda.pdf');
      const renamed = await owner.agent
        .post(`${base(org.id)}/document/${file.id}/move`)
        .send({ name: 'NDA signed.pdf', parentFolder: null })
        .expect(200);
      expect(renamed.body).toEqual({
        id: file.id,
        name: 'NDA signed.pdf',
        type: 'file',
        parentFolder: null,
        size: expect.any(Number),
        contentType: 'application/pdf',
        created: expect.stringMatching(ISO),
      });
      const moved = await owner.agent
        .post(`${base(org.id)}/document/${file.id}/move`)
        .send({ name: 'NDA signed.pdf', parentFolder: legal.id })
        .expect(200);
      expect(moved.body.parentFolder).toBe(legal.id);
      // parentFolder left out: stays in its folder.
      const again = await owner.agent
        .post(`${base(org.id)}/document/${file.id}/move`)
        .send({ name: 'nda signed.pdf' })
        .expect(200);
      expect(again.body).toMatchObject({ name: 'nda signed.pdf', parentFolder: legal.id });
      await owner.agent
        .post(`${base(org.id)}/document/${legal.id}/move`)
        .send({ name: 'Legal & Tax', parentFolder: null })
        .expect(200);

      const moves = await events(org.id, 'document.moved');
      expect(moves.map((m) => [m.description, m.data.previous_attributes])).toEqual([
        ['file nda.pdf: renamed to NDA signed.pdf', { name: 'nda.pdf' }],
        ['file NDA signed.pdf: moved to another folder', { parentFolder: null }],
        ['file NDA signed.pdf: renamed to nda signed.pdf', { name: 'NDA signed.pdf' }],
        ['folder Legal: renamed to Legal & Tax', { name: 'Legal' }],
      ]);
      expect(moves[0].data.object).toEqual({ ...renamed.body, organization: org.id });

      // Nothing changes: no event.
      await owner.agent
        .post(`${base(org.id)}/document/${file.id}/move`)
        .send({ name: 'nda signed.pdf', parentFolder: legal.id })
        .expect(200);
      expect(await events(org.id, 'document.moved')).toHaveLength(4);
    });

    it('refuses a folder into itself or one of its subfolders (409)', async () => {
      const { owner, org } = await dataRoom();
      const a = await folder(owner.agent, org.id, 'A');
      const b = await folder(owner.agent, org.id, 'B', a.id);
      const c = await folder(owner.agent, org.id, 'C', b.id);
      for (const into of [a.id, b.id, c.id]) {
        const res = await owner.agent
          .post(`${base(org.id)}/document/${a.id}/move`)
          .send({ name: 'A', parentFolder: into })
          .expect(409);
        expect(res.body.message).toContain('subfolders');
      }
      // Out of its parent, and a subfolder to the top: fine.
      await owner.agent
        .post(`${base(org.id)}/document/${c.id}/move`)
        .send({ name: 'C', parentFolder: null })
        .expect(200);
      await owner.agent
        .post(`${base(org.id)}/document/${a.id}/move`)
        .send({ name: 'A', parentFolder: c.id })
        .expect(200);
    });

    it('answers 409 for a name taken in the destination, 400 for a file changing type', async () => {
      const { owner, org } = await dataRoom();
      const dir = await folder(owner.agent, org.id, 'Dir');
      await uploaded(owner.agent, org.id, 'taken.pdf', dir.id);
      const file = await uploaded(owner.agent, org.id, 'mine.pdf');
      await owner.agent
        .post(`${base(org.id)}/document/${file.id}/move`)
        .send({ name: 'TAKEN.pdf', parentFolder: dir.id })
        .expect(409);
      await owner.agent
        .post(`${base(org.id)}/document/${file.id}/move`)
        .send({ name: 'mine.html' })
        .expect(400);
      await owner.agent
        .post(`${base(org.id)}/document/${file.id}/move`)
        .send({ name: 'mine' })
        .expect(400);
      await owner.agent
        .post(`${base(org.id)}/document/${file.id}/move`)
        .send({ name: 'a/b.pdf' })
        .expect(400);
      await owner.agent
        .post(`${base(org.id)}/document/${file.id}/move`)
        .send({ name: 'x.pdf', parentFolder: file.id })
        .expect(400);
      expect((await list(owner.agent, org.id, '?parentFolder=root')).map((e) => e.name)).toEqual([
        'Dir',
        'mine.pdf',
      ]);
    });

    it('refuses a parentFolder of another organization and a deleted or unknown document (404)', async () => {
      const { owner, org } = await dataRoom();
      const file = await uploaded(owner.agent, org.id, 'a.pdf');
      const other = await dataRoom();
      const theirs = await folder(other.owner.agent, other.org.id, 'Theirs');
      await owner.agent
        .post(`${base(org.id)}/document/${file.id}/move`)
        .send({ name: 'a.pdf', parentFolder: theirs.id })
        .expect(404);
      await owner.agent
        .post(`${base(org.id)}/document/${MISSING}/move`)
        .send({ name: 'a.pdf' })
        .expect(404);
      expect((await list(other.owner.agent, other.org.id))[0].name).toBe('Theirs');
    });
  });

  describe('DELETE .../document/:document', () => {
    it('deletes a file (soft: the row stays, the bytes stay) and emits document.deleted', async () => {
      const { owner, org } = await dataRoom();
      const file = await uploaded(owner.agent, org.id, 'a.pdf');
      const res = await owner.agent.delete(`${base(org.id)}/document/${file.id}`).expect(200);
      expect(res.body).toEqual({});
      expect(await list(owner.agent, org.id)).toEqual([]);
      const [row] = await db.query(
        `SELECT d.deleted_at IS NOT NULL AS entry, f.deleted_at IS NOT NULL AS file
         FROM document d JOIN stored_file f ON f.id = d.file_id WHERE d.id = $1`,
        [file.id],
      );
      expect(row).toEqual({ entry: true, file: true });
      expect(objectsOf(org.id)).toHaveLength(1);
      await owner.agent.delete(`${base(org.id)}/document/${file.id}`).expect(404);
      // Its name is free again.
      await uploaded(owner.agent, org.id, 'a.pdf');
      const [deleted] = await events(org.id, 'document.deleted');
      expect(deleted).toEqual({
        actor: owner.user.id,
        description: 'file a.pdf: deleted',
        data: {
          object: expect.objectContaining({ id: file.id, name: 'a.pdf', organization: org.id }),
          previous_attributes: {},
        },
      });
    });

    it('refuses a non-empty folder (409) unless ?recursive=true, which deletes its subtree', async () => {
      const { owner, org } = await dataRoom();
      const a = await folder(owner.agent, org.id, 'A');
      const b = await folder(owner.agent, org.id, 'B', a.id);
      await uploaded(owner.agent, org.id, 'deep.pdf', b.id);
      await uploaded(owner.agent, org.id, 'shallow.pdf', a.id);
      const keep = await uploaded(owner.agent, org.id, 'keep.pdf');
      const empty = await folder(owner.agent, org.id, 'Empty');

      const res = await owner.agent.delete(`${base(org.id)}/document/${a.id}`).expect(409);
      expect(res.body.message).toContain('recursive=true');
      await owner.agent.delete(`${base(org.id)}/document/${a.id}?recursive=false`).expect(409);
      await owner.agent.delete(`${base(org.id)}/document/${a.id}?recursive=maybe`).expect(400);
      await owner.agent.delete(`${base(org.id)}/document/${empty.id}`).expect(200);
      await owner.agent.delete(`${base(org.id)}/document/${a.id}?recursive=true`).expect(200);

      expect((await list(owner.agent, org.id)).map((e) => e.id)).toEqual([keep.id]);
      const [counts] = await db.query(
        `SELECT count(*) FILTER (WHERE deleted_at IS NOT NULL)::int AS deleted,
                count(*) FILTER (WHERE deleted_at IS NULL)::int AS live
         FROM stored_file WHERE organization_id = $1`,
        [org.id],
      );
      expect(counts).toEqual({ deleted: 2, live: 1 });
      const deletions = await events(org.id, 'document.deleted');
      expect(deletions.map((d) => d.description)).toEqual([
        'folder Empty: deleted',
        'folder A: deleted with the 3 entries in it',
      ]);
      await owner.agent.get(`${base(org.id)}/document?parentFolder=${b.id}`).expect(404);
    });
  });

  describe('access', () => {
    it('answers 401 without a session on every route', async () => {
      const { owner, org } = await dataRoom();
      const file = await uploaded(owner.agent, org.id, 'a.pdf');
      const requests = [
        t.http.get(`${base(org.id)}/document`),
        t.http.post(`${base(org.id)}/document`).attach('file', pdf(), 'x.pdf'),
        t.http.get(`${base(org.id)}/document/${file.id}/content`),
        t.http.get(`${base(org.id)}/document/${file.id}/content/a.pdf`),
        t.http.post(`${base(org.id)}/folder`).send({ name: 'x' }),
        t.http.post(`${base(org.id)}/document/${file.id}/move`).send({ name: 'b.pdf' }),
        t.http.delete(`${base(org.id)}/document/${file.id}`),
      ];
      for (const req of requests) await req.expect(401).expect(errorBody(401));
      expect(await storedRows(org.id)).toBe(1);
    });

    it('lets a Viewer read but not change; a Shareholder list but not read; an Editor change', async () => {
      const { owner, org } = await dataRoom();
      const file = await uploaded(owner.agent, org.id, 'a.pdf');
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      const editor = await memberAgent(t, owner.agent, org.id, 'Editor');

      expect(await list(viewer.agent, org.id)).toHaveLength(1);
      await viewer.agent.get(`${base(org.id)}/document/${file.id}/content`).expect(200);
      await viewer.agent.get(`${base(org.id)}/document/${file.id}/content/a.pdf`).expect(200);
      const refused = [
        (a: Agent) => upload(a, org.id, [[pdf(), 'v.pdf']]),
        (a: Agent) => a.post(`${base(org.id)}/folder`).send({ name: 'v' }),
        (a: Agent) => a.post(`${base(org.id)}/document/${file.id}/move`).send({ name: 'v.pdf' }),
        (a: Agent) => a.delete(`${base(org.id)}/document/${file.id}`),
      ];
      for (const request of refused) {
        await request(viewer.agent).expect(403).expect(errorBody(403));
        await request(shareholder.agent).expect(403);
      }

      expect(await list(shareholder.agent, org.id)).toHaveLength(1);
      await shareholder.agent.get(`${base(org.id)}/document/${file.id}/content`).expect(403);
      await shareholder.agent.get(`${base(org.id)}/document/${file.id}/content/a.pdf`).expect(403);

      const dir = await folder(editor.agent, org.id, 'Editor’s');
      await uploaded(editor.agent, org.id, 'e.pdf', dir.id);
      await editor.agent
        .post(`${base(org.id)}/document/${file.id}/move`)
        .send({ name: 'a.pdf', parentFolder: dir.id })
        .expect(200);
      await editor.agent.delete(`${base(org.id)}/document/${dir.id}?recursive=true`).expect(200);
      expect(await list(owner.agent, org.id)).toEqual([]);
    });

    it('keeps another organization’s entries out: 404 under its own path, 403 under theirs', async () => {
      const mine = await dataRoom();
      const theirs = await dataRoom();
      const file = await uploaded(theirs.owner.agent, theirs.org.id, 'secret.pdf');
      const dir = await folder(theirs.owner.agent, theirs.org.id, 'Secret');
      const me = mine.owner.agent;
      const under = base(mine.org.id);
      await me.get(`${under}/document/${file.id}/content`).expect(404).expect(errorBody(404));
      await me.get(`${under}/document/${file.id}/content/secret.pdf`).expect(404);
      await me.post(`${under}/document/${file.id}/move`).send({ name: 'mine.pdf' }).expect(404);
      await me.post(`${under}/document/${dir.id}/move`).send({ name: 'Mine' }).expect(404);
      await me.delete(`${under}/document/${dir.id}`).expect(404);
      await me.delete(`${under}/document/${file.id}`).expect(404);

      const there = base(theirs.org.id);
      await me.get(`${there}/document`).expect(403);
      await me.get(`${there}/document/${file.id}/content`).expect(403);
      await upload(me, theirs.org.id, [[pdf(), 'x.pdf']]).expect(403);
      await me.post(`${there}/folder`).send({ name: 'x' }).expect(403);
      await me.post(`${there}/document/${file.id}/move`).send({ name: 'x.pdf' }).expect(403);
      await me.delete(`${there}/document/${file.id}`).expect(403);

      expect((await list(theirs.owner.agent, theirs.org.id)).map((e) => e.name)).toEqual([
        'Secret',
        'secret.pdf',
      ]);
      expect(await storedRows(mine.org.id)).toBe(0);
    });
  });
});

describe('data room in production', () => {
  const prodStorage = tempStorage();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        NODE_ENV: 'production',
        TRUST_PROXY: 'loopback',
        STORAGE_DIR: prodStorage.dir,
        DATA_ROOM_UPLOAD_SIZE_LIMIT_MB: '1',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    prodStorage.remove();
  });

  it('answers every data room route 404 like an unknown path to a member; 401 without a session', async () => {
    // The session cookie is Secure in production: it is sent back by hand, behind the trusted
    // proxy that terminates TLS (X-Forwarded-Proto).
    const { email, password } = await registerUser(t);
    const login = await t.http
      .post('/v1/user/login')
      .set('X-Forwarded-Proto', 'https')
      .send({ email, password })
      .expect(200);
    const cookie = sessionSetCookie(login)!.split(';')[0];
    const as = (req: Test) => req.set('Cookie', cookie).set('X-Forwarded-Proto', 'https');
    const org = (await as(t.http.post('/v1/organization')).send({ name: 'Prod Inc.' }).expect(201))
      .body;
    // The session works: the organization itself is there.
    await as(t.http.get(`/v1/organization/${org.id}`)).expect(200);

    const id = MISSING;
    const big = Buffer.alloc(1.5 * 1024 * 1024, 0x20);
    const routes = (http: TestApp['http']) => [
      http.get(`${base(org.id)}/document`),
      http.head(`${base(org.id)}/document`),
      http.post(`${base(org.id)}/document`).attach('file', pdf(), 'a.pdf'),
      http.post(`${base(org.id)}/document`).attach('file', big, 'big.pdf'),
      http.post(`${base(org.id)}/document/many`).attach('file', pdf(), 'a.pdf'),
      http.get(`${base(org.id)}/document/${id}/content`),
      http.get(`${base(org.id)}/document/${id}/content/a.pdf`),
      http.post(`${base(org.id)}/folder`).send({ name: 'x' }),
      http.post(`${base(org.id)}/document/${id}/move`).send({ name: 'x' }),
      http.delete(`${base(org.id)}/document/${id}?recursive=true`),
    ];
    const unknown = await t.http.get('/v1/no-such-route').expect(404);
    // The guard decides by the organization's store, read with the caller's access: a caller
    // without a session learns nothing either way.
    for (const req of routes(t.http)) await req.expect(401);
    for (const req of routes(t.http)) {
      const res = await as(req).expect(404);
      // HEAD answers have no body. Routes of a record: none exists (404 anyway).
      if (req.method !== 'HEAD' && !req.url.includes(id)) expect(res.body).toEqual(unknown.body);
    }
    expect(prodStorage.files()).toEqual([]);
    const rows = await t
      .get<DataSource>(DataSource)
      .query('SELECT count(*)::int AS n FROM document');
    expect(rows[0].n).toBe(0);
  });
});
