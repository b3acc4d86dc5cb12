import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { tempStorage } from '../../support/temp-storage';

const HEADER =
  'holderName,holderEmail,security,classType,quantity,pricePerShare,issueDate,certificateNumber';

const csv = (...lines: string[]) => Buffer.from(`${lines.join('\n')}\n`, 'utf8');
const goodRows = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Holder ${i % 50},holder-${i % 50}@example.com,Common Stock,common,1,,2024-01-15,`,
  );

/**
 * The bounds of a CSV import (security review, issue 19): at most CSV_IMPORT_MAX_ROWS rows (413
 * above, nothing written), and at most 1,000 row errors in the answer, with their true count.
 */
describe('cap table import (CSV) limits', () => {
  let t: TestApp;
  let db: DataSource;
  const storage = tempStorage();
  beforeAll(async () => {
    t = await createTestApp({
      env: { STORAGE_DIR: storage.dir, CSV_IMPORT_MAX_ROWS: '2000' },
    });
    db = t.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    storage.remove();
  });

  const upload = (agent: Agent, orgId: string, content: Buffer, query = '') =>
    agent.post(`/v1/organization/${orgId}/import${query}`).attach('file', content, 'captable.csv');

  async function footprint(orgId: string) {
    const [row] = (await db.query(
      `SELECT (SELECT count(*) FROM member WHERE organization_id = $1)::int AS members,
              (SELECT count(*) FROM security WHERE organization_id = $1)::int AS securities,
              (SELECT count(*) FROM shareholding WHERE organization_id = $1)::int AS shareholdings,
              (SELECT count(*) FROM equity_transaction WHERE organization_id = $1)::int AS log,
              (SELECT count(*) FROM stored_file WHERE organization_id = $1)::int AS files,
              (SELECT count(*) FROM outbox_event WHERE organization_id = $1)::int AS events`,
      [orgId],
    )) as Record<string, number>[];
    return { ...row, objects: storage.files().length };
  }

  async function owned() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    return { owner, org };
  }

  it('1,600 bad rows: the answer lists the first 1,000 errors and counts all 1,600', async () => {
    const { owner, org } = await owned();
    const before = await footprint(org.id);
    const content = csv(HEADER, ...Array.from({ length: 1600 }, () => 'x'));
    for (const query of ['?dryRun=true', '']) {
      const res = await upload(owner.agent, org.id, content, query);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(
        ['error', 'message', 'rowErrorCount', 'rows'].sort(),
      );
      expect(res.body.rowErrorCount).toBe(1600);
      expect(res.body.rows).toHaveLength(1000);
      expect(res.body.rows[0]).toEqual({
        row: 1,
        column: 'holderEmail',
        reason: 'too few columns: 1 of 8',
      });
      expect(res.body.rows.at(-1).row).toBe(1000);
      expect(res.body.message).toMatch(/^1600 row\(s\) cannot be imported/);
    }
    expect(await footprint(org.id)).toEqual(before);
  });

  it('a few bad rows: every error listed, and the count says so', async () => {
    const { owner, org } = await owned();
    const res = await upload(owner.agent, org.id, csv(HEADER, ...goodRows(3), 'x', 'y'));
    expect(res.status).toBe(400);
    expect(res.body.rows.map((r: { row: number }) => r.row)).toEqual([4, 5]);
    expect(res.body.rowErrorCount).toBe(2);
  });

  it('more rows than CSV_IMPORT_MAX_ROWS: 413, nothing written (dry run too); exactly as many import', async () => {
    const { owner, org } = await owned();
    const before = await footprint(org.id);
    const over = csv(HEADER, ...goodRows(2001));
    for (const query of ['?dryRun=true', '']) {
      const res = await upload(owner.agent, org.id, over, query);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({
        error: 'Payload Too Large',
        message: expect.stringMatching(/more than 2000 rows/),
      });
    }
    expect(await footprint(org.id)).toEqual(before);

    const res = await upload(owner.agent, org.id, csv(HEADER, ...goodRows(2000)));
    expect(res.status).toBe(201);
    expect(res.body.imported.shareholdings).toBe(2000);
  });

  it('the attack: 5 MB of "x" lines is refused at once with a small answer, not millions of row errors', async () => {
    const { owner, org } = await owned();
    const before = await footprint(org.id);
    const content = Buffer.from(`${HEADER}\n${'x\n'.repeat(2_500_000)}`);
    const started = Date.now();
    const res = await upload(owner.agent, org.id, content);
    const elapsed = Date.now() - started;
    expect(res.status).toBe(413);
    expect(res.text.length).toBeLessThan(1000);
    expect(elapsed).toBeLessThan(5_000);
    expect(await footprint(org.id)).toEqual(before);
  });
});
