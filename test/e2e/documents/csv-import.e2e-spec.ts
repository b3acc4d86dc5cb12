import { createHash } from 'node:crypto';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { FileStore } from '../../../src/documents/files/file-store.service';
import { verifyLedger } from '../../support/ledger-verify';
import { createTestApp, TestApp } from '../../support/app';
import { createSecurity, issue } from '../../support/cap-table';
import { errorBody } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { tempStorage } from '../../support/temp-storage';
import { bytes, exe, ISO, MISSING, pdf, UUID } from './upload-fixtures';

const HEADER =
  'holderName,holderEmail,security,classType,quantity,pricePerShare,issueDate,certificateNumber,status,ownershipPercent';
const TEMPLATE = [
  HEADER,
  'Jane Doe,jane.doe@example.com,Common Stock,common,1000,0.0001,2024-01-15,CS-1,active,100.0000',
  '',
].join('\r\n');

const csv = (...lines: string[]) => Buffer.from(`${lines.join('\n')}\n`, 'utf8');

describe('cap table import (CSV)', () => {
  let t: TestApp;
  let db: DataSource;
  const storage = tempStorage();
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

  const upload = (
    agent: Agent,
    orgId: string,
    content: Buffer,
    name = 'captable.csv',
    query = '',
  ) => agent.post(`/v1/organization/${orgId}/import${query}`).attach('file', content, name);

  const exported = async (agent: Agent, orgId: string) =>
    (await agent.get(`/v1/organization/${orgId}/captable`).expect(200)).text;

  /** What an import may leave behind, counted for one organization. */
  async function footprint(orgId: string) {
    const [row] = await db.query(
      `SELECT (SELECT count(*) FROM member WHERE organization_id = $1)::int AS members,
              (SELECT count(*) FROM entity)::int AS entities,
              (SELECT count(*) FROM security WHERE organization_id = $1)::int AS securities,
              (SELECT count(*) FROM shareholding WHERE organization_id = $1)::int AS shareholdings,
              (SELECT count(*) FROM share_block WHERE organization_id = $1)::int AS blocks,
              (SELECT count(*) FROM equity_transaction WHERE organization_id = $1)::int AS log,
              (SELECT count(*) FROM stored_file WHERE organization_id = $1)::int AS files,
              (SELECT count(*) FROM outbox_event WHERE organization_id = $1)::int AS events,
              (SELECT coalesce(sum(version), 0) FROM resource_version WHERE organization_id = $1)::int AS versions`,
      [orgId],
    );
    return { ...row, objects: storage.files().length };
  }

  async function owned() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    return { owner, org };
  }

  describe('GET /v1/organization/:organization/import', () => {
    it('answers the template: the header row and one example row, as an attachment', async () => {
      const { owner, org } = await owned();
      const res = await owner.agent.get(`/v1/organization/${org.id}/import`).expect(200);
      expect(res.text).toBe(TEMPLATE);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        'attachment; filename="captable-import-template.csv"',
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it('the template imports as it is (a dry run)', async () => {
      const { owner, org } = await owned();
      const res = await upload(
        owner.agent,
        org.id,
        Buffer.from(TEMPLATE),
        'template.csv',
        '?dryRun=true',
      ).expect(200);
      expect(res.body).toEqual({
        file: null,
        imported: { rows: 1, holders: 1, securities: 1, shareholdings: 1 },
      });
    });

    it('any member may have the template, a non-member not (403); 401 without a session', async () => {
      const { owner, org } = await owned();
      const path = `/v1/organization/${org.id}/import`;
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      await viewer.agent.get(path).expect(200);
      const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      await shareholder.agent.get(path).expect(200);
      const other = await owned();
      await other.owner.agent.get(path).expect(403).expect(errorBody(403));
      await t.http.get(path).expect(401).expect(errorBody(401));
      await owner.agent.get(`${path}?fil=1`).expect(400);
      await owner.agent.get(`${path}?file=not-a-uuid`).expect(400);
    });
  });

  describe('POST /v1/organization/:organization/import', () => {
    it('imports every row: members, classes and shareholdings, the file stored; 201', async () => {
      const { owner, org } = await owned();
      const common = await createSecurity(owner.agent, org.id);
      const existing = await owner.agent
        .post(`/v1/organization/${org.id}/member`)
        .send({ name: 'Ada Lovelace', email: 'ada@example.com' })
        .expect(201);
      const content = csv(
        HEADER,
        // An existing member by address (any case), an existing class by name.
        'Ada L.,ADA@example.com,Common Stock,common,1000,0.0001,2024-01-15,,,',
        // A new member by address; a new class, its prefix from the certificate number.
        'Grace Hopper,grace@example.com,Series Seed,preferred,250,1.25,2024-02-01,SS-7,active,20',
        // A new member by name; the same new class.
        'Alan Turing,,Series Seed,preferred,750,,2024-02-02,SS-8,active,5',
        // The same member again, by name.
        'Alan Turing,,Common Stock,common,5,,2024-03-01,,,',
      );
      const res = await upload(owner.agent, org.id, content).expect(201);
      expect(res.body).toEqual({
        file: {
          id: expect.stringMatching(UUID),
          organization: org.id,
          name: 'captable.csv',
          size: content.length,
          contentType: 'text/csv; charset=utf-8',
          sha256: createHash('sha256').update(content).digest('hex'),
          plan: null,
          holding: null,
          created: expect.stringMatching(ISO),
        },
        imported: { rows: 4, holders: 2, securities: 1, shareholdings: 4 },
      });

      expect((await exported(owner.agent, org.id)).split('\r\n')).toEqual([
        HEADER,
        'Ada Lovelace,ada@example.com,Common Stock,common,1000,0.0001,2024-01-15,CS-1,active,49.8753',
        'Alan Turing,,Common Stock,common,5,,2024-03-01,CS-2,active,0.2494',
        'Grace Hopper,grace@example.com,Series Seed,preferred,250,1.25,2024-02-01,SS-1,active,12.4688',
        'Alan Turing,,Series Seed,preferred,750,,2024-02-02,SS-2,active,37.4065',
        '',
      ]);
      const members = (await owner.agent.get(`/v1/organization/${org.id}/member`).expect(200))
        .body as { id: string; name: string; email: string | null; role: string }[];
      // The member found by address keeps their name; the new ones are Shareholders.
      expect(members.find((m) => m.id === existing.body.id)).toMatchObject({
        name: 'Ada Lovelace',
      });
      const SHAREHOLDER = '00000000-0000-4000-8000-000000000005';
      expect(members.filter((m) => m.role === SHAREHOLDER && m.id !== existing.body.id)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'Grace Hopper', email: 'grace@example.com' }),
          expect.objectContaining({ name: 'Alan Turing', email: null }),
        ]),
      );
      expect(members).toHaveLength(4);
      const holdings = (
        await owner.agent.get(`/v1/organization/${org.id}/shareholding`).expect(200)
      ).body as { member: string; quantity: string }[];
      expect(holdings.filter((h) => h.member === existing.body.id)).toEqual([
        expect.objectContaining({ quantity: '1000' }),
      ]);
      const classes = (await owner.agent.get(`/v1/organization/${org.id}/security`).expect(200))
        .body as {
        id: string;
        name: string;
        classType: string;
        idPrefix: string;
        authorizedShares: string;
        issuedShares: string;
      }[];
      expect(classes.find((c) => c.id === common.id)).toMatchObject({ issuedShares: '1005' });
      expect(classes.find((c) => c.name === 'Series Seed')).toMatchObject({
        classType: 'preferred',
        idPrefix: 'SS-',
        authorizedShares: '1000',
        issuedShares: '1000',
      });
      const events = (await db.query(
        `SELECT type FROM outbox_event WHERE organization_id = $1 AND created >= now() - interval '1 minute'
         ORDER BY sequence`,
        [org.id],
      )) as { type: string }[];
      expect(events.map((e) => e.type).slice(-5)).toEqual([
        'member.added',
        'member.added',
        'security.created',
        'shareholding.imported',
        'billing.shareholder_count_changed',
      ]);
    });

    it('the file is stored and downloadable with ?file=; another organization’s file is 404', async () => {
      const { owner, org } = await owned();
      const content = csv(HEADER, 'Ada,,Common,common,10,,2024-01-15,C-1,,');
      const imported = await upload(owner.agent, org.id, content, 'Q1 cap table.csv').expect(201);
      const res = await bytes(
        owner.agent.get(`/v1/organization/${org.id}/import?file=${imported.body.file.id}`),
      ).expect(200);
      expect(Buffer.compare(res.body, content)).toBe(0);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="Q1 cap table.csv"');
      expect(res.headers['x-content-type-options']).toBe('nosniff');

      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      await viewer.agent
        .get(`/v1/organization/${org.id}/import?file=${imported.body.file.id}`)
        .expect(200);
      // The file is the cap table: a Shareholder, who may have the template, may not have it.
      const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      await shareholder.agent
        .get(`/v1/organization/${org.id}/import?file=${imported.body.file.id}`)
        .expect(403)
        .expect(errorBody(403));
      const other = await owned();
      await other.owner.agent
        .get(`/v1/organization/${other.org.id}/import?file=${imported.body.file.id}`)
        .expect(404)
        .expect(errorBody(404));
      await owner.agent.get(`/v1/organization/${org.id}/import?file=${MISSING}`).expect(404);
      // A file of the organization that is not an import is not served here.
      const { files } = await t
        .get<FileStore>(FileStore)
        .store(
          [{ originalname: 'notes.txt', buffer: Buffer.from('notes'), size: 5 }],
          { organizationId: org.id, uploadedByUserId: imported.body.file.id, purpose: 'file' },
          async () => undefined,
        );
      await owner.agent.get(`/v1/organization/${org.id}/import?file=${files[0].id}`).expect(404);
    });

    it('?dryRun=true says what would be imported and changes nothing; 200', async () => {
      const { owner, org } = await owned();
      await createSecurity(owner.agent, org.id);
      const before = await footprint(org.id);
      const res = await upload(
        owner.agent,
        org.id,
        csv(
          HEADER,
          'Ada,ada@example.com,Common Stock,common,10,,2024-01-15,,,',
          'Bob,,Preferred A,preferred,20,,2024-01-15,,,',
        ),
        'captable.csv',
        '?dryRun=true',
      ).expect(200);
      expect(res.body).toEqual({
        file: null,
        imported: { rows: 2, holders: 2, securities: 1, shareholdings: 2 },
      });
      expect(await footprint(org.id)).toEqual(before);
    });

    it('reports every error of every row at once (row, column, reason) and imports nothing', async () => {
      const { owner, org } = await owned();
      const before = await footprint(org.id);
      const res = await upload(
        owner.agent,
        org.id,
        csv(
          HEADER,
          'Ada,ada@example.com,Common Stock,common,100,0.01,2024-01-15,CS-1,,',
          'Bob,,Common Stock,common,12abc,,2024-01-15,,,',
          'Carol,,Common Stock,common,10.5,,2024-01-15,,,',
          'Dan,,Common Stock,ordinary,10,,2024-01-15,,,',
          'Eve,,Common Stock,common,10,,2024-13-01,,,',
          ',,Common Stock,common,10,,2024-01-15,,,',
          'Fay,,Common Stock,common,5',
          'Gu"y,,Common Stock,common,10,,2024-01-15,,,',
          'Hal,not-an-address,Common Stock,common,0,-1,15/01/2024,,,',
          'Ivy,,Common Stock,common,10,,2024-01-15,,,,extra',
          'Jo,,Common Stock,common,10,,2024-01-15,,,',
        ),
      ).expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        message: '9 row(s) cannot be imported; nothing was imported',
        rowErrorCount: 12,
        rows: [
          {
            row: 2,
            column: 'quantity',
            reason:
              'must be a number more than 0 (at most 28 digits before the point and 10 after)',
          },
          {
            row: 3,
            column: 'quantity',
            reason: 'must be a whole number of shares (fractional units are for LLCs)',
          },
          { row: 4, column: 'classType', reason: 'must be common or preferred, not "ordinary"' },
          { row: 5, column: 'issueDate', reason: 'must be a date YYYY-MM-DD' },
          { row: 6, column: 'holderName', reason: 'required' },
          { row: 7, column: 'pricePerShare', reason: 'too few columns: 5 of 10' },
          {
            row: 8,
            column: null,
            reason: expect.stringMatching(/^malformed CSV: Invalid Opening Quote/),
          },
          { row: 9, column: 'holderEmail', reason: 'not an e-mail address' },
          {
            row: 9,
            column: 'quantity',
            reason:
              'must be a number more than 0 (at most 28 digits before the point and 10 after)',
          },
          {
            row: 9,
            column: 'pricePerShare',
            reason: 'must be a number (at most 28 digits before the point and 10 after)',
          },
          { row: 9, column: 'issueDate', reason: 'must be a date YYYY-MM-DD' },
          { row: 10, column: null, reason: 'too many columns: 11 of 10' },
        ],
      });
      expect(await footprint(org.id)).toEqual(before);
    });

    it('reports broken quoting that runs to the end of the file, and header errors as row 0', async () => {
      const { owner, org } = await owned();
      const unclosed = await upload(
        owner.agent,
        org.id,
        csv(
          HEADER,
          'Ada,,Common Stock,common,10,,2024-01-15,,,',
          '"Bob,,Common Stock,common,10,,2024-01-15,,,',
          'Cy,,X,common,1,,2024-01-15,,,',
        ),
      ).expect(400);
      expect(unclosed.body.rows).toEqual([
        { row: 2, column: null, reason: expect.stringMatching(/^malformed CSV: Quote Not Closed/) },
      ]);
      const header = await upload(
        owner.agent,
        org.id,
        csv(
          'holderName,email,security,classType,quantity,issueDate,certificateNumber',
          'Ada,a@b.co,X,common,1,2024-01-15,',
        ),
      ).expect(400);
      expect(header.body.rows).toEqual([
        { row: 0, column: 'email', reason: 'not a column of the cap table CSV' },
        { row: 0, column: 'holderEmail', reason: 'missing from the header' },
        { row: 0, column: 'pricePerShare', reason: 'missing from the header' },
      ]);
      const empty = await upload(owner.agent, org.id, Buffer.from('\n')).expect(400);
      expect(empty.body.rows).toEqual([{ row: 0, column: null, reason: 'the file is empty' }]);
      const headerOnly = await upload(owner.agent, org.id, csv(HEADER)).expect(400);
      expect(headerOnly.body.rows).toEqual([
        { row: 1, column: null, reason: 'the file has no rows after the header' },
      ]);
    });

    it('checks rows against the cap table: class types, ambiguous names; an LLC takes fractions', async () => {
      const { owner, org } = await owned();
      await createSecurity(owner.agent, org.id);
      for (const email of ['sam1@example.com', 'sam2@example.com']) {
        await owner.agent
          .post(`/v1/organization/${org.id}/member`)
          .send({ name: 'Sam', email })
          .expect(201);
      }
      const res = await upload(
        owner.agent,
        org.id,
        csv(
          HEADER,
          'Ada,,Common Stock,preferred,10,,2024-01-15,,,',
          'Sam,,Common Stock,common,10,,2024-01-15,,,',
          'Sam,sam2@example.com,Common Stock,common,10,,2024-01-15,,,',
          'Bo,,New Class,common,10,,2024-01-15,,,',
          'Cy,,New Class,preferred,10,,2024-01-15,,,',
        ),
      ).expect(400);
      expect(res.body.rows).toEqual([
        { row: 1, column: 'classType', reason: 'class "Common Stock" is common, not preferred' },
        {
          row: 2,
          column: 'holderName',
          reason: '2 members are named "Sam": give the holder\'s e-mail address',
        },
        {
          row: 5,
          column: 'classType',
          reason: 'the file\'s class "New Class" is common on its first row',
        },
      ]);

      await owner.agent.patch(`/v1/organization/${org.id}`).send({ type: 'llc' }).expect(200);
      const llc = await upload(
        owner.agent,
        org.id,
        csv(HEADER, 'Ada,,Units,common,10.25,,2024-01-15,U-1,,'),
      ).expect(201);
      expect(llc.body.imported).toEqual({ rows: 1, holders: 1, securities: 1, shareholdings: 1 });
      expect(await exported(owner.agent, org.id)).toContain(
        'Ada,,Units,common,10.25,,2024-01-15,U-1,active,',
      );
    });

    it('is all or nothing: a row over the authorized shares → insufficientShares, nothing kept', async () => {
      const { owner, org } = await owned();
      const common = await createSecurity(owner.agent, org.id, { authorizedShares: '1000' });
      const holder = await owner.agent
        .post(`/v1/organization/${org.id}/member`)
        .send({ name: 'Early' })
        .expect(201);
      await issue(owner.agent, org.id, {
        member: holder.body.id,
        security: common.id,
        quantity: '900',
      });
      const before = await footprint(org.id);
      const res = await upload(
        owner.agent,
        org.id,
        csv(
          HEADER,
          // Would create a member and a class, and fit...
          'New Person,new@example.com,Brand New,preferred,10,,2024-01-15,,,',
          'Ada,,Common Stock,common,60,,2024-01-15,,,',
          // ...but these two take Common Stock past its 1,000 authorized shares.
          'Bob,,Common Stock,common,50,,2024-01-15,,,',
          'Cy,,Common Stock,common,500,,2024-01-15,,,',
        ),
      ).expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        key: 'insufficientShares',
        message: '2 row(s) cannot be imported; nothing was imported',
        rowErrorCount: 2,
        rows: [
          {
            row: 3,
            column: 'quantity',
            reason: 'insufficientShares: class Common Stock has 40 unissued shares, less than 50',
          },
          {
            row: 4,
            column: 'quantity',
            reason: 'insufficientShares: class Common Stock has 40 unissued shares, less than 500',
          },
        ],
      });
      // No member, class, shareholding, log entry, file row or stored object; no event.
      expect(await footprint(org.id)).toEqual(before);
      const dry = await upload(
        owner.agent,
        org.id,
        csv(HEADER, 'Cy,,Common Stock,common,500,,2024-01-15,,,'),
        'c.csv',
        '?dryRun=true',
      ).expect(400);
      expect(dry.body.key).toBe('insufficientShares');
    });

    it('is all or nothing when the refused row comes after rows already written (21,000 rows)', async () => {
      const { owner, org } = await owned();
      // Room for 20,999 of the file's 21,000 one-share rows: the last is refused, after the
      // import has sent its first 20,000 issuances to the database.
      await createSecurity(owner.agent, org.id, { authorizedShares: '20999' });
      const before = await footprint(org.id);
      const rows = Array.from(
        { length: 21_000 },
        (_, i) => `Holder ${i % 100},,Common Stock,common,1,,2024-01-15,,,`,
      );
      const res = await upload(owner.agent, org.id, csv(HEADER, ...rows)).expect(400);
      expect(res.body).toMatchObject({
        key: 'insufficientShares',
        rows: [
          {
            row: 21_000,
            column: 'quantity',
            reason: 'insufficientShares: class Common Stock has 0 unissued shares, less than 1',
          },
        ],
      });
      expect(await footprint(org.id)).toEqual(before);
    });

    it('missingFileArgument, unsupportedFileExtension (not .csv, or not text), 413 over the limit', async () => {
      const { owner, org } = await owned();
      const before = await footprint(org.id);
      const path = `/v1/organization/${org.id}/import`;
      const none = await owner.agent.post(path).field('note', 'no file').expect(400);
      expect(none.body).toMatchObject({ error: 'Bad Request', key: 'missingFileArgument' });
      const asPdf = await upload(owner.agent, org.id, pdf(), 'captable.pdf').expect(400);
      expect(asPdf.body).toMatchObject({ key: 'unsupportedFileExtension' });
      const binary = await upload(owner.agent, org.id, exe(), 'captable.csv').expect(400);
      expect(binary.body).toMatchObject({ key: 'unsupportedFileExtension' });
      const big = Buffer.concat([csv(HEADER), Buffer.alloc(1024 * 1024 + 1, 'a')]);
      const tooBig = await upload(owner.agent, org.id, big).expect(413);
      expect(tooBig.body).toMatchObject({ error: 'Payload Too Large' });
      expect(await footprint(org.id)).toEqual(before);
    });

    it('needs canEditCapTable: a Viewer is refused (403), an Editor may; 401; another organization 403', async () => {
      const { owner, org } = await owned();
      const content = csv(HEADER, 'Ada,,Common,common,10,,2024-01-15,,,');
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      await upload(viewer.agent, org.id, content).expect(403).expect(errorBody(403));
      const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      await upload(shareholder.agent, org.id, content).expect(403);
      await t.http
        .post(`/v1/organization/${org.id}/import`)
        .attach('file', content, 'c.csv')
        .expect(401)
        .expect(errorBody(401));
      const other = await owned();
      await upload(other.owner.agent, org.id, content).expect(403);
      const before = await footprint(org.id);
      expect(before.shareholdings).toBe(0);
      const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
      await upload(editor.agent, org.id, content).expect(201);
    });

    it('round trip: export, import into an empty organization, export again → the same bytes', async () => {
      const source = await owned();
      const { owner, org } = source;
      const common = await createSecurity(owner.agent, org.id);
      const preferred = await createSecurity(owner.agent, org.id, {
        name: 'Series A Preferred',
        classType: 'preferred',
        idPrefix: 'SA-',
        seniority: 2,
      });
      const people = [
        { name: 'Zoë Ångström', email: 'zoe@example.com' },
        { name: '=HYPERLINK("http://x")' },
        { name: 'Comma, "Quoted" Name', email: 'q@example.com' },
        { name: 'Ada' },
      ];
      const ids: string[] = [];
      for (const p of people) {
        ids.push(
          (await owner.agent.post(`/v1/organization/${org.id}/member`).send(p).expect(201)).body.id,
        );
      }
      const grants = [
        [0, common.id, '1000000', '0.0001', '2020-01-01'],
        [1, preferred.id, '250000', '1.2345', '2021-06-30'],
        [2, common.id, '12', null, '2022-02-28'],
        [3, common.id, '7', '0', '2023-12-31'],
        [0, preferred.id, '3', '2', '2024-01-01'],
        [3, common.id, '1', null, '2024-01-02'],
      ] as const;
      for (const [who, security, quantity, pricePerShare, issueDate] of grants) {
        await issue(owner.agent, org.id, {
          member: ids[who],
          security,
          quantity,
          pricePerShare,
          issueDate,
        });
      }
      const first = await exported(owner.agent, org.id);

      const target = await owned();
      await upload(target.owner.agent, target.org.id, Buffer.from(first), 'round-trip.csv').expect(
        201,
      );
      const second = await exported(target.owner.agent, target.org.id);
      expect(second).toBe(first);
      expect(first.split('\r\n')).toHaveLength(8);
    });

    it('2,000 rows import in one go and ledger:verify finds the tables equal to the log', async () => {
      const { owner, org } = await owned();
      await createSecurity(owner.agent, org.id, { authorizedShares: '1000' });
      // Every third row one share of Common Stock (667 of its 1,000), the others a new class.
      const rows = Array.from({ length: 2000 }, (_, i) => {
        const holder = `Holder ${i % 250},holder-${i % 250}@example.com`;
        const date = `2024-0${1 + (i % 9)}-1${i % 10}`;
        return i % 3 === 0
          ? `${holder},Common Stock,common,1,0.01,${date},,,`
          : `${holder},Series B,preferred,${100 + i},1.5,${date},SB-${i},,`;
      });
      const res = await upload(owner.agent, org.id, csv(HEADER, ...rows)).expect(201);
      expect(res.body.imported).toEqual({
        rows: 2000,
        holders: 250,
        securities: 1,
        shareholdings: 2000,
      });
      const verified = await verifyLedger(t, org.id);
      expect(verified).toMatchObject({ code: 0, transactions: 2002, differences: [] });
      const json = (
        await owner.agent.get(`/v1/organization/${org.id}/captable?format=json`).expect(200)
      ).body as { certificateNumber: string }[];
      expect(json).toHaveLength(2000);
      expect(json[0].certificateNumber).toBe('CS-1');
      expect(json.at(-1)!.certificateNumber).toBe('SB-1333');
    });
  });
});
