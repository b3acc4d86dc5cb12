import { createHash } from 'node:crypto';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../../support/app';
import { errorBody } from '../../support/errors';
import { memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { tempStorage } from '../../support/temp-storage';
import { createHolding, incentiveTable, optionBody } from '../cap-table/holdings-fixtures';
import { bytes, exe, ISO, MISSING, pdf, png, txt, UUID } from './upload-fixtures';
import { ownerWithOrg } from '../../support/world';

const storage = tempStorage();
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('files outside the data room', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp({
      env: { STORAGE_DIR: storage.dir, STORAGE_UPLOAD_SIZE_LIMIT_MB: '1' },
    });
    db = t.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    storage.remove();
  });

  const orgUpload = (
    agent: Agent,
    org: string,
    file: [Buffer, string] | null,
    fields: Record<string, string> = {},
  ) => {
    let req = agent.post(`/v1/organization/${org}/file`);
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    return file ? req.attach('file', file[0], file[1]) : req;
  };

  const uploadedFile = async (agent: Agent, org: string, name = 'plan.pdf', content = pdf()) => {
    const res = await orgUpload(agent, org, [content, name]);
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string; name: string };
  };

  const rowsOf = async (where: string, value: string) =>
    Number(
      (await db.query(`SELECT count(*)::int AS n FROM stored_file WHERE ${where} = $1`, [value]))[0]
        .n,
    );
  const objectsOf = (owner: string) => storage.files().filter((f) => f.includes(owner));

  describe('POST /v1/organization/:organization/file', () => {
    it('stores one file and answers its record; emits document.uploaded', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const content = pdf('the plan');
      const res = await orgUpload(owner.agent, org.id, [content, 'Plan document.pdf']).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        organization: org.id,
        name: 'Plan document.pdf',
        size: content.length,
        contentType: 'application/pdf',
        sha256: sha256(content),
        plan: null,
        holding: null,
        created: expect.stringMatching(ISO),
      });
      expect(objectsOf(org.id)).toHaveLength(1);
      const events = await db.query(
        `SELECT type, actor_user_id AS actor, description, data FROM outbox_event
         WHERE organization_id = $1 AND type = 'document.uploaded'`,
        [org.id],
      );
      expect(events).toEqual([
        {
          type: 'document.uploaded',
          actor: owner.user.id,
          description: 'file Plan document.pdf: uploaded',
          data: { object: res.body, previous_attributes: {} },
        },
      ]);
    });

    it('links the file to a plan and a holding of the organization', async () => {
      const x = await incentiveTable(t);
      const grant = await createHolding(x.owner.agent, optionBody(x));
      const res = await orgUpload(x.owner.agent, x.org.id, [pdf(), 'agreement.pdf'], {
        plan: x.plan.id,
        holding: grant.id,
      }).expect(201);
      expect(res.body).toMatchObject({ plan: x.plan.id, holding: grant.id });
    });

    it('refuses a plan or holding of another organization, or unknown (404), and a malformed id (400)', async () => {
      const mine = await ownerWithOrg(t);
      const x = await incentiveTable(t);
      const grant = await createHolding(x.owner.agent, optionBody(x));
      const file: [Buffer, string] = [pdf(), 'a.pdf'];
      await orgUpload(mine.owner.agent, mine.org.id, file, { plan: x.plan.id })
        .expect(404)
        .expect(errorBody(404));
      await orgUpload(mine.owner.agent, mine.org.id, file, { holding: grant.id }).expect(404);
      await orgUpload(mine.owner.agent, mine.org.id, file, { plan: MISSING }).expect(404);
      await orgUpload(mine.owner.agent, mine.org.id, file, { holding: 'nope' }).expect(400);
      expect(await rowsOf('organization_id', mine.org.id)).toBe(0);
      expect(objectsOf(mine.org.id)).toEqual([]);
    });

    it('refuses no file (missingFileArgument), a bad extension or content (unsupportedFileExtension), two files (400)', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const none = await orgUpload(owner.agent, org.id, null, { note: 'x' }).expect(400);
      expect(none.body).toEqual({
        error: 'Bad Request',
        key: 'missingFileArgument',
        message: expect.any(String),
      });
      for (const file of [
        [exe(), 'tool.exe'],
        [txt('not a png'), 'fake.png'],
        [pdf(), 'no-extension'],
      ] as [Buffer, string][]) {
        const res = await orgUpload(owner.agent, org.id, file).expect(400);
        expect(res.body).toEqual({
          error: 'Bad Request',
          key: 'unsupportedFileExtension',
          message: expect.any(String),
        });
      }
      await owner.agent
        .post(`/v1/organization/${org.id}/file`)
        .attach('file', pdf(), 'a.pdf')
        .attach('file', pdf(), 'b.pdf')
        .expect(400);
      expect(await rowsOf('organization_id', org.id)).toBe(0);
      expect(objectsOf(org.id)).toEqual([]);
    });

    it('answers 413 over STORAGE_UPLOAD_SIZE_LIMIT_MB and stores nothing', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const big = Buffer.concat([pdf(), Buffer.alloc(1.5 * 1024 * 1024, 0x20)]);
      const res = await orgUpload(owner.agent, org.id, [big, 'big.pdf']).expect(413);
      expect(res.body).toEqual({ error: 'Payload Too Large', message: expect.any(String) });
      expect(await rowsOf('organization_id', org.id)).toBe(0);
      expect(objectsOf(org.id)).toEqual([]);
    });

    it('needs a session (401) and canEditDocuments (403 for a Viewer, a Shareholder, a stranger)', async () => {
      const { owner, org } = await ownerWithOrg(t);
      await orgUpload(t.http as unknown as Agent, org.id, [pdf(), 'a.pdf'])
        .expect(401)
        .expect(errorBody(401));
      for (const role of ['Viewer', 'Shareholder']) {
        const member = await memberAgent(t, owner.agent, org.id, role);
        await orgUpload(member.agent, org.id, [pdf(), 'a.pdf']).expect(403).expect(errorBody(403));
      }
      const stranger = await loggedInAgent(t);
      await orgUpload(stranger.agent, org.id, [pdf(), 'a.pdf']).expect(403);
      expect(await rowsOf('organization_id', org.id)).toBe(0);
      const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
      await orgUpload(editor.agent, org.id, [pdf(), 'a.pdf']).expect(201);
    });
  });

  describe('GET /v1/file/:file/content', () => {
    it('sends an attachment with its type, length, name and nosniff', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const content = pdf('bytes');
      const file = await uploadedFile(owner.agent, org.id, 'Term sheet.pdf', content);
      const res = await bytes(owner.agent.get(`/v1/file/${file.id}/content`)).expect(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-length']).toBe(String(content.length));
      expect(res.headers['content-disposition']).toBe('attachment; filename="Term sheet.pdf"');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(Buffer.compare(res.body, content)).toBe(0);
    });

    it('shows PDFs and images inline at .../content/:name, and anything else as an attachment', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const doc = await uploadedFile(owner.agent, org.id, 'deck.pdf');
      const text = await uploadedFile(owner.agent, org.id, 'notes.txt', txt('<b>hi</b>'));
      const inline = await bytes(owner.agent.get(`/v1/file/${doc.id}/content/deck.pdf`)).expect(
        200,
      );
      expect(inline.headers['content-disposition']).toBe('inline; filename="deck.pdf"');
      const plain = await bytes(owner.agent.get(`/v1/file/${text.id}/content/notes.txt`)).expect(
        200,
      );
      expect(plain.headers['content-disposition']).toBe('attachment; filename="notes.txt"');
      expect(plain.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(plain.headers['x-content-type-options']).toBe('nosniff');
    });

    it('lets members with canViewFile read; refuses a Shareholder and a stranger (403)', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const file = await uploadedFile(owner.agent, org.id);
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      const stranger = await loggedInAgent(t);
      for (const path of [`/v1/file/${file.id}/content`, `/v1/file/${file.id}/content/x.pdf`]) {
        await viewer.agent.get(path).expect(200);
        await shareholder.agent.get(path).expect(403).expect(errorBody(403));
        await stranger.agent.get(path).expect(403);
        await t.http.get(path).expect(401).expect(errorBody(401));
      }
    });

    it('lets the uploader read their file after losing the role that let them see it', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
      const file = await uploadedFile(editor.agent, org.id);
      const other = await uploadedFile(owner.agent, org.id, 'owners.pdf');
      await owner.agent
        .patch(`/v1/organization/${org.id}/member/${editor.member.id}`)
        .send({ role: 'Shareholder' })
        .expect(200);
      await editor.agent.get(`/v1/file/${file.id}/content`).expect(200);
      await editor.agent.get(`/v1/file/${other.id}/content`).expect(403);
    });

    it('answers 404 for a deleted file, an unknown one, and 400 for a malformed id', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const [entry] = (
        await owner.agent
          .post(`/v1/organization/${org.id}/document`)
          .attach('file', pdf(), 'room.pdf')
          .expect(201)
      ).body;
      const [{ fileId }] = await db.query(
        'SELECT file_id AS "fileId" FROM document WHERE id = $1',
        [entry.id],
      );
      await owner.agent.get(`/v1/file/${fileId}/content`).expect(200);
      await owner.agent.delete(`/v1/organization/${org.id}/document/${entry.id}`).expect(200);
      await owner.agent.get(`/v1/file/${fileId}/content`).expect(404).expect(errorBody(404));
      await owner.agent.get(`/v1/file/${fileId}/content/room.pdf`).expect(404);
      await owner.agent.get(`/v1/file/${MISSING}/content`).expect(404);
      await owner.agent.get('/v1/file/nope/content').expect(400);
    });
  });

  describe('POST /v1/profile/:profile/file', () => {
    const profileUpload = (agent: Agent, profile: string, file: [Buffer, string] | null) => {
      const req = agent.post(`/v1/profile/${profile}/file`);
      return file ? req.attach('file', file[0], file[1]) : req.field('x', 'y');
    };

    it('stores a file of the user’s own; an image becomes the avatar', async () => {
      const me = await loggedInAgent(t);
      const profile = me.user.profileId as string;
      const image = png();
      const res = await profileUpload(me.agent, profile, [image, 'me.png']).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        organization: null,
        name: 'me.png',
        size: image.length,
        contentType: 'image/png',
        sha256: sha256(image),
        plan: null,
        holding: null,
        created: expect.stringMatching(ISO),
      });
      const read = await me.agent.get(`/v1/profile/${profile}`).expect(200);
      expect(read.body.avatarFileId).toBe(res.body.id);
      const avatar = await bytes(me.agent.get(`/v1/file/${res.body.id}/content/me.png`)).expect(
        200,
      );
      expect(avatar.headers['content-type']).toBe('image/png');
      expect(avatar.headers['content-disposition']).toBe('inline; filename="me.png"');
      expect(Buffer.compare(avatar.body, image)).toBe(0);
      expect(objectsOf(`users/${me.user.id}`)).toHaveLength(1);

      // A document is stored, and the avatar stays.
      const cv = await profileUpload(me.agent, profile, [pdf(), 'cv.pdf']).expect(201);
      await me.agent.get(`/v1/file/${cv.body.id}/content`).expect(200);
      expect((await me.agent.get(`/v1/profile/${profile}`)).body.avatarFileId).toBe(res.body.id);
      const [row] = await db.query(
        'SELECT purpose, owner_user_id AS owner FROM stored_file WHERE id = $1',
        [res.body.id],
      );
      expect(row).toEqual({ purpose: 'avatar', owner: me.user.id });
    });

    it('is the profile’s own user’s alone: 403 to upload to or read another’s, 404 unknown, 401', async () => {
      const me = await loggedInAgent(t);
      const other = await loggedInAgent(t);
      const mine = await profileUpload(me.agent, me.user.profileId as string, [
        pdf(),
        'private.pdf',
      ]).expect(201);
      await profileUpload(other.agent, me.user.profileId as string, [png(), 'x.png'])
        .expect(403)
        .expect(errorBody(403));
      expect((await me.agent.get(`/v1/profile/${me.user.profileId}`)).body.avatarFileId).toBeNull();
      await other.agent.get(`/v1/file/${mine.body.id}/content`).expect(403);
      await other.agent.get(`/v1/file/${mine.body.id}/content/private.pdf`).expect(403);
      await profileUpload(me.agent, MISSING, [png(), 'x.png']).expect(404);
      await profileUpload(t.http as unknown as Agent, me.user.profileId as string, [
        png(),
        'x.png',
      ]).expect(401);
      expect(await rowsOf('owner_user_id', other.user.id)).toBe(0);
      expect(await rowsOf('owner_user_id', me.user.id)).toBe(1);
    });

    it('refuses no file, a bad extension or content (400) and a file over the limit (413)', async () => {
      const me = await loggedInAgent(t);
      const profile = me.user.profileId as string;
      const none = await profileUpload(me.agent, profile, null).expect(400);
      expect(none.body.key).toBe('missingFileArgument');
      const bad = await profileUpload(me.agent, profile, [exe(), 'a.exe']).expect(400);
      expect(bad.body.key).toBe('unsupportedFileExtension');
      const fake = await profileUpload(me.agent, profile, [txt('no'), 'a.jpg']).expect(400);
      expect(fake.body.key).toBe('unsupportedFileExtension');
      const big = Buffer.concat([png(), Buffer.alloc(1.5 * 1024 * 1024)]);
      await profileUpload(me.agent, profile, [big, 'big.png']).expect(413);
      expect(await rowsOf('owner_user_id', me.user.id)).toBe(0);
      expect(objectsOf(`users/${me.user.id}`)).toEqual([]);
      expect((await me.agent.get(`/v1/profile/${profile}`)).body.avatarFileId).toBeNull();
    });
  });

  describe('GET /v1/incentive/documents', () => {
    it('lists the files of the caller’s own grants and of the plans they hold grants in', async () => {
      const x = await incentiveTable(t);
      const employee = await memberAgent(t, x.owner.agent, x.org.id, 'Shareholder');
      const grant = await createHolding(
        x.owner.agent,
        optionBody(x, { member: employee.member.id }),
      );
      const alicesGrant = await createHolding(x.owner.agent, optionBody(x));
      const up = (name: string, fields: Record<string, string>) =>
        orgUpload(x.owner.agent, x.org.id, [pdf(name), name], fields).expect(201);
      const planDoc = (await up('plan.pdf', { plan: x.plan.id })).body;
      const agreement = (await up('my grant.pdf', { holding: grant.id })).body;
      await up('alice grant.pdf', { holding: alicesGrant.id });
      await up('unlinked.pdf', {});

      const res = await employee.agent.get('/v1/incentive/documents').expect(200);
      expect(res.body).toEqual([planDoc, agreement]);
      expect(res.body[1]).toMatchObject({
        organization: x.org.id,
        plan: null,
        holding: grant.id,
      });
      // Alice has no account; the owner holds no grant.
      expect((await x.owner.agent.get('/v1/incentive/documents').expect(200)).body).toEqual([]);

      // The grantee (a Shareholder, without canViewFile) downloads what is listed for them, and
      // nothing else: another grantee's agreement and unlinked files stay refused.
      for (const f of [planDoc, agreement])
        await employee.agent.get(`/v1/file/${f.id}/content`).expect(200);
      const others = await db.query(
        `SELECT id FROM stored_file WHERE organization_id = $1 AND name IN ('alice grant.pdf', 'unlinked.pdf')`,
        [x.org.id],
      );
      for (const f of others as { id: string }[])
        await employee.agent.get(`/v1/file/${f.id}/content`).expect(403);
    });

    it('leaves out deleted files and another plan’s documents; needs a session', async () => {
      const x = await incentiveTable(t);
      const employee = await memberAgent(t, x.owner.agent, x.org.id, 'Shareholder');
      await createHolding(x.owner.agent, optionBody(x, { member: employee.member.id }));
      const doc = (
        await orgUpload(x.owner.agent, x.org.id, [pdf(), 'plan.pdf'], { plan: x.plan.id })
      ).body;
      const y = await incentiveTable(t);
      await orgUpload(y.owner.agent, y.org.id, [pdf(), 'other plan.pdf'], {
        plan: y.plan.id,
      }).expect(201);
      expect((await employee.agent.get('/v1/incentive/documents')).body).toEqual([doc]);
      await db.query('UPDATE stored_file SET deleted_at = now() WHERE id = $1', [doc.id]);
      expect((await employee.agent.get('/v1/incentive/documents')).body).toEqual([]);
      await employee.agent.get('/v1/incentive/documents?limit=1').expect(400);
      await t.http.get('/v1/incentive/documents').expect(401).expect(errorBody(401));
    });
  });
});
