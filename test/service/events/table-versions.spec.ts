import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { definedLists } from '../../../src/common';
import '../../../src/app.module';
import { SHAREHOLDING_LIST_SQL } from '../../../src/cap-table/shareholdings/shareholding.repository';
import { MEMBER_LIST_SQL } from '../../../src/organizations/members/member.repository';
import { createTestDatabase, TestDatabase } from '../../support/app';

/**
 * The versions cached lists are keyed by are the database's: every write to a tracked table bumps
 * its version for each organization it wrote, at commit, whatever path wrote it.
 */
describe('table versions (the database bumps what a transaction wrote)', () => {
  let database: TestDatabase;
  let db: Client;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = new Client({ connectionString: database.url });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await database.drop();
  });

  const versions = async (...orgs: string[]) =>
    Object.fromEntries(
      (
        (await db.query(
          `SELECT organization_id || '|' || resource AS k, version::int AS v FROM resource_version
           WHERE organization_id = ANY($1) ORDER BY 1`,
          [orgs],
        )) as { rows: { k: string; v: number }[] }
      ).rows.map((r) => [r.k, r.v]),
    );

  /** An organization row (nothing else): members are written to it below. */
  async function organization() {
    const id = randomUUID();
    await db.query(
      `WITH e AS (INSERT INTO entity (kind, name) VALUES ('organization', 'Versioned Inc.') RETURNING id)
       INSERT INTO organization (id, name, entity_id) SELECT $1, 'Versioned Inc.', e.id FROM e`,
      [id],
    );
    return id;
  }
  const addMember = (org: string, name = 'M') =>
    db.query(
      `INSERT INTO member (id, organization_id, name, role_id, status)
       VALUES ($1, $2, $3, (SELECT id FROM role WHERE organization_id IS NULL AND name = 'Viewer'), 'active')`,
      [randomUUID(), org, name],
    );

  it('a committed write bumps the table once per transaction; SQL outside the service too', async () => {
    const org = await organization();
    await addMember(org);
    expect(await versions(org)).toEqual({ [`${org}|member`]: 1 });
    await db.query('BEGIN');
    await addMember(org);
    await db.query(`UPDATE member SET title = 'x' WHERE organization_id = $1`, [org]);
    // Not before the commit: a reader cannot key a cache by a version nobody committed.
    expect(await versions(org)).toEqual({ [`${org}|member`]: 1 });
    await db.query('COMMIT');
    expect(await versions(org)).toEqual({ [`${org}|member`]: 2 });
    await db.query(`DELETE FROM member WHERE organization_id = $1 AND title = 'x'`, [org]);
    expect(await versions(org)).toEqual({ [`${org}|member`]: 3 });
  });

  it('a rolled-back write bumps nothing, nor does a rolled-back savepoint', async () => {
    const org = await organization();
    const other = await organization();
    await db.query('BEGIN');
    await addMember(org);
    await db.query('ROLLBACK');
    expect(await versions(org)).toEqual({});
    await db.query('BEGIN');
    await addMember(org);
    await db.query('SAVEPOINT s');
    await addMember(other);
    await db.query('ROLLBACK TO SAVEPOINT s');
    await db.query('COMMIT');
    expect(await versions(org, other)).toEqual({ [`${org}|member`]: 1 });
    // Nothing of the transaction stays behind.
    expect((await db.query('SELECT count(*)::int AS n FROM resource_write')).rows[0].n).toBe(0);
  });

  it('one statement writing two organizations bumps both', async () => {
    const [a, b] = [await organization(), await organization()];
    await addMember(a);
    await addMember(b);
    await db.query(`UPDATE member SET title = 'both' WHERE organization_id = ANY($1)`, [[a, b]]);
    expect(await versions(a, b)).toEqual({ [`${a}|member`]: 2, [`${b}|member`]: 2 });
  });

  it('every defined list reads only tracked tables', async () => {
    const lists = definedLists();
    expect(lists.map((l) => l.list).sort()).toEqual(
      expect.arrayContaining(['document', 'holding', 'member', 'plan', 'security', 'shareholding']),
    );
    const tracked = (
      await db.query(
        `SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
         JOIN pg_proc p ON p.oid = t.tgfoid WHERE p.proname = 'resource_versions_note'`,
      )
    ).rows.map((r: { relname: string }) => r.relname);
    for (const list of lists) {
      expect({
        list: list.list,
        untracked: list.tables.filter((t) => !tracked.includes(t)),
      }).toEqual({ list: list.list, untracked: [] });
    }
  });

  /** The tables PostgreSQL's plan of `sql` reads. */
  async function tablesRead(sql: string, params: unknown[]): Promise<string[]> {
    const plan = (await db.query(`EXPLAIN (FORMAT JSON) ${sql}`, params)).rows[0]['QUERY PLAN'];
    const found = new Set<string>();
    const walk = (node: unknown) => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'Relation Name') found.add(value as string);
        else walk(value);
      }
    };
    walk(plan);
    return [...found].sort();
  }

  it('a list built by one statement declares every table its plan reads', async () => {
    const byName = new Map(definedLists().map((l) => [l.list, l]));
    const org = randomUUID();
    const user = randomUUID();
    const cases: [string, string, unknown[]][] = [
      ['shareholding', SHAREHOLDING_LIST_SQL, [org, user, 'active', 10, 0]],
      ['member', MEMBER_LIST_SQL, [org, user]],
    ];
    for (const [list, sql, params] of cases) {
      const read = await tablesRead(sql, params);
      expect(read.length).toBeGreaterThan(0);
      expect({
        list,
        undeclared: read.filter((t) => !byName.get(list)!.tables.includes(t)),
      }).toEqual({ list, undeclared: [] });
    }
  });
});
