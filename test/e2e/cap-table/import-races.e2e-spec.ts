import { Client } from 'pg';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { IMPORT_LOCK_KEY } from '../../../src/cap-table/exports/import-lock';
import { coherentPackage, packageZip } from '../../fixtures/ocf/ocf-packages';
import { verifyLedger } from '../../support/ledger-verify';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { eventually, sleep } from '../../support/eventually';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { tempStorage } from '../../support/temp-storage';

const HEADER =
  'holderName,holderEmail,security,classType,quantity,pricePerShare,issueDate,certificateNumber';
const csv = (lines: string[]) => Buffer.from(`${HEADER}\n${lines.join('\n')}\n`, 'utf8');
/**
 * `n` rows: holders by e-mail (`tag` keeps files apart), one share each of `security` (by default
 * a class of the tag's own: a class an import creates is authorized for what it issued, no more).
 */
const rows = (n: number, tag: string, security = `Class ${tag}`, classType = 'common') =>
  Array.from(
    { length: n },
    (_, i) =>
      `Holder ${tag} ${i % 200},${tag}-${i % 200}@example.com,${security},${classType},1,,2024-01-15,`,
  );

/**
 * Imports against each other and against the API's writes (security review, issue 19): one import
 * per organization at a time (CSV or OCF, dry runs included: 409 `importInProgress`), held by a
 * PostgreSQL advisory lock so that it holds across processes; and an import racing issuances,
 * transfers and new members leaves a ledger that replays to the tables.
 */
describe('imports racing each other and the API', () => {
  let t: TestApp;
  const storage = tempStorage();
  beforeAll(async () => {
    // Four imports race at once from one user: more than the uploads a user may have in
    // progress by default (3), which is not what these tests are about.
    t = await createTestApp({
      env: { STORAGE_DIR: storage.dir, UPLOAD_CONCURRENCY_PER_USER: '8' },
    });
  });
  afterAll(async () => {
    await t.close();
    storage.remove();
  });

  const csvImport = (agent: Agent, orgId: string, content: Buffer, query = '') =>
    agent.post(`/v1/organization/${orgId}/import${query}`).attach('file', content, 'captable.csv');
  const ocfImport = (agent: Agent, orgId: string, content: Buffer, query = '') =>
    agent.post(`/v1/organization/${orgId}/ocf${query}`).attach('file', content, 'package.zip');

  async function owned() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Racing Inc.');
    return { owner, org };
  }

  /** Another session on the database, as another process of the service would have. */
  async function otherSession() {
    const client = new Client({ connectionString: t.database.url });
    await client.connect();
    return client;
  }

  /** Sends the request now (supertest sends when awaited) and settles with its answer. */
  const sent = (request: PromiseLike<{ status: number; body: Record<string, unknown> }>) =>
    Promise.resolve(request);

  const IN_PROGRESS = { error: 'Conflict', key: 'importInProgress', message: expect.any(String) };

  it('two CSV imports at once into one organization: one imports, the other 409 importInProgress; then another is accepted', async () => {
    const { owner, org } = await owned();
    const [a, b] = await Promise.all([
      csvImport(owner.agent, org.id, csv(rows(4000, 'a'))),
      csvImport(owner.agent, org.id, csv(rows(4000, 'b'))),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect((a.status === 409 ? a : b).body).toEqual(IN_PROGRESS);
    const after = await csvImport(owner.agent, org.id, csv(rows(10, 'c')));
    expect(after.status).toBe(201);
    expect(await verifyLedger(t, org.id)).toMatchObject({ code: 0 });
  });

  it('while another process imports (the lock held by another session), CSV and OCF imports and dry runs answer 409; other organizations import', async () => {
    const { owner, org } = await owned();
    const other = await owned();
    const session = await otherSession();
    try {
      await session.query(`SELECT pg_advisory_lock(${IMPORT_LOCK_KEY})`, [org.id]);
      const zipped = await packageZip(coherentPackage());
      const answers = await Promise.all([
        csvImport(owner.agent, org.id, csv(rows(5, 'a'))),
        csvImport(owner.agent, org.id, csv(rows(5, 'a')), '?dryRun=true'),
        ocfImport(owner.agent, org.id, zipped),
        ocfImport(owner.agent, org.id, zipped, '?dryRun=true'),
      ]);
      for (const res of answers) {
        expect(res.status).toBe(409);
        expect(res.body).toEqual(IN_PROGRESS);
      }
      expect((await ocfImport(other.owner.agent, other.org.id, zipped)).status).toBe(201);
      // Refusals change nothing and bad input is still told apart: no file is 400, not 409.
      const none = await owner.agent.post(`/v1/organization/${org.id}/import`).field('x', 'y');
      expect(none.status).toBe(400);
    } finally {
      await session.end();
    }
    // The other session gone, its lock is gone with it.
    const res = await ocfImport(owner.agent, org.id, await packageZip(coherentPackage()));
    expect(res.status).toBe(201);
  });

  it('a refused import (400) and a client that hangs up both leave the organization free for the next import', async () => {
    const { owner, org } = await owned();
    const bad = await csvImport(owner.agent, org.id, csv(['x']));
    expect(bad.status).toBe(400);
    expect((await csvImport(owner.agent, org.id, csv(rows(3, 'a')), '?dryRun=true')).status).toBe(
      200,
    );

    // A large import the client gives up on after a moment.
    const request = csvImport(owner.agent, org.id, csv(rows(10000, 'big')));
    const hungUp = new Promise<void>((resolve) => {
      setTimeout(() => {
        request.abort();
        resolve();
      }, 300);
    });
    request.then(
      () => undefined,
      () => undefined,
    );
    await hungUp;
    const next = await eventually(
      async () => {
        const res = await csvImport(owner.agent, org.id, csv(rows(3, 'after')));
        return res.status === 201 ? res.status : false;
      },
      90_000,
      500,
    );
    expect(next).toBe(201);
    expect(await verifyLedger(t, org.id)).toMatchObject({ code: 0 });
  }, 150_000);

  it('a CSV import racing issuances, transfers and new members: every write waits or is refused cleanly, and ledger:verify is clean', async () => {
    const { owner, org } = await owned();
    const a = owner.agent;
    const common = await createSecurity(a, org.id, { authorizedShares: '1000000' });
    const holders = [];
    for (let i = 0; i < 3; i++) holders.push(await createHolder(a, org.id, `API Holder ${i}`));
    const source = await issue(a, org.id, {
      member: holders[0].id,
      security: common.id,
      quantity: '100000',
    });

    let importing = true;
    const imported = sent(
      csvImport(
        a,
        org.id,
        csv([...rows(3000, 'imp', 'Common Stock'), ...rows(1000, 'imp', 'Series Z', 'preferred')]),
      ),
    ).finally(() => {
      importing = false;
    });
    const writes: Promise<{ status: number; body: Record<string, unknown> }>[] = [];
    let n = 0;
    while (importing) {
      const i = n++;
      writes.push(
        sent(
          a.post(`/v1/organization/${org.id}/shareholding`).send({
            member: holders[i % 3].id,
            security: common.id,
            quantity: '7',
            issueDate: '2024-02-01',
          }),
        ),
        sent(
          a.post(`/v1/organization/${org.id}/shareholding/transfer`).send({
            shareholding: source.id,
            toMember: holders[1 + (i % 2)].id,
            quantity: '3',
            date: '2024-03-01',
          }),
        ),
        // The same e-mail as rows of the import: one of the two adds the member.
        sent(
          a
            .post(`/v1/organization/${org.id}/member`)
            .send({ name: `Racer ${i}`, email: `imp-${i % 5}@example.com` }),
        ),
        sent(a.post(`/v1/organization/${org.id}/member`).send({ name: `Plain ${i}` })),
      );
      await sleep(100);
    }
    const res = await imported;
    const answers = await Promise.all(writes);
    expect(res.status).toBe(201);
    expect(n).toBeGreaterThan(1);
    for (const w of answers) {
      // A member whose address the import (or an earlier racer) took: 409, never a 500.
      expect([201, 409]).toContain(w.status);
    }
    expect(answers.filter((w) => w.status === 201).length).toBeGreaterThan(0);
    const verified = await verifyLedger(t, org.id);
    expect(verified).toMatchObject({ code: 0 });
  }, 180_000);

  it('a member given an address of the import’s rows while it runs: the import waits for it, then matches it', async () => {
    const { owner, org } = await owned();
    const late = await createHolder(owner.agent, org.id, 'Late Holder');
    const session = await otherSession();
    try {
      // Another write, not yet committed, gives the member the address of the import's rows.
      await session.query('BEGIN');
      await session.query("UPDATE member SET email = 'late@example.com' WHERE id = $1", [late.id]);
      const imported = sent(
        csvImport(
          owner.agent,
          org.id,
          csv(['Late Holder,late@example.com,Class late,common,5,,2024-01-15,', ...rows(3, 'x')]),
        ),
      );
      // The import found no such member and now waits on that address to add one.
      const db = t.get<DataSource>(DataSource);
      await eventually(async () => {
        const [row] = (await db.query(
          `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
                          WHERE datname = current_database() AND wait_event_type = 'Lock') AS waiting`,
        )) as { waiting: boolean }[];
        return row.waiting;
      });
      await session.query('COMMIT');
      const res = await imported;
      expect(res.status).toBe(201);
    } finally {
      await session.end();
    }
    const held = (
      (await owner.agent.get(`/v1/organization/${org.id}/shareholding?limit=1000`).expect(200))
        .body as { member: string; quantity: string }[]
    ).filter((h) => h.member === late.id);
    expect(held.map((h) => h.quantity)).toEqual(['5']);
    const [{ n }] = (await t
      .get<DataSource>(DataSource)
      .query(
        "SELECT count(*)::int AS n FROM member WHERE organization_id = $1 AND email = 'late@example.com'",
        [org.id],
      )) as { n: number }[];
    expect(n).toBe(1);
  });

  it('an OCF import racing new members and a new class: one order or the other, never both halves; ledger:verify is clean', async () => {
    const { owner, org } = await owned();
    const a = owner.agent;
    let importing = true;
    const imported = sent(ocfImport(a, org.id, await packageZip(coherentPackage()))).finally(() => {
      importing = false;
    });
    const writes: Promise<{ status: number; body: Record<string, unknown> }>[] = [];
    let n = 0;
    while (importing) {
      const i = n++;
      writes.push(sent(a.post(`/v1/organization/${org.id}/member`).send({ name: `Member ${i}` })));
      if (i === 1) {
        writes.push(
          sent(
            a.post(`/v1/organization/${org.id}/security`).send({
              name: 'Racing Class',
              classType: 'common',
              idPrefix: 'RC-',
              authorizedShares: '1000',
            }),
          ),
        );
      }
      await sleep(20);
    }
    const res = await imported;
    const answers = await Promise.all(writes);
    for (const w of answers) expect(w.status).toBe(201);
    // Either the class came first (the cap table was no longer empty) or it waited for the import.
    if (res.status !== 201) expect(res.body.key).toBe('capTableNotEmpty');
    const verified = await verifyLedger(t, org.id);
    expect(verified).toMatchObject({ code: 0 });
  }, 120_000);
});
