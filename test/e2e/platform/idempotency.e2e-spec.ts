import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { Agent, Response } from 'supertest';
import { DataSource } from 'typeorm';
import { IMPORT_LOCK_KEY } from '../../../src/cap-table/exports/import-lock';
import { IdempotencyStore } from '../../../src/idempotency/idempotency-store';
import { openApiDocument } from '../../../src/openapi';
import { Scheduler } from '../../../src/scheduler';
import { coherentPackage, packageZip } from '../../fixtures/ocf/ocf-packages';
import type { TestApp } from '../../support/app';
import { issue } from '../../support/cap-table';
import { eventually } from '../../support/eventually';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { appWithTempStorage } from '../../support/temp-storage';
import { capTable, CapTable } from '../../support/world';

const KEY = 'Idempotency-Key';
const REPLAYED = 'idempotent-replayed';

/**
 * `Idempotency-Key` on the writes of the cap table and the imports (issue 20): the first answer
 * is kept with the caller, the route and the body's hash; a retry gets it again and writes
 * nothing; the key with another request is 422, a retry while the first runs 409 (until the
 * lease of a claim whose request died lapses).
 */
describe('Idempotency-Key', () => {
  let t: TestApp;
  let db: DataSource;
  appWithTempStorage((app) => {
    t = app;
    db = app.get(DataSource);
  });

  const logged = async (orgId: string, type: string) =>
    Number(
      (
        await db.query(
          `SELECT count(*) AS n FROM equity_transaction WHERE organization_id = $1 AND type = $2`,
          [orgId, type],
        )
      )[0].n,
    );
  const eventCount = async (orgId: string, type: string) =>
    Number(
      (
        await db.query(
          `SELECT count(*) AS n FROM outbox_event WHERE organization_id = $1 AND type = $2`,
          [orgId, type],
        )
      )[0].n,
    );
  const shareholdings = async (agent: Agent, orgId: string) =>
    (await agent.get(`/v1/organization/${orgId}/shareholding`).expect(200)).body as {
      id: string;
      member: string;
      quantity: string;
      status: string;
    }[];
  const keyRows = async (key: string) =>
    (await db.query(`SELECT state, status FROM idempotency_key WHERE key = $1`, [key])) as {
      state: string;
      status: number | null;
    }[];

  const issuance = (c: CapTable, quantity = '100') => ({
    member: c.alice.id,
    security: c.security.id,
    quantity,
    issueDate: '2024-01-15',
  });
  const issueWith = (c: CapTable, key: string, body: object, agent = c.owner.agent) =>
    agent.post(`/v1/organization/${c.org.id}/shareholding`).set(KEY, key).send(body);

  let counter = 0;
  const newKey = () => `key-${Date.now()}-${++counter}`;

  const expectReplay = (first: Response, retry: Response) => {
    expect(retry.status).toBe(first.status);
    expect(retry.text).toBe(first.text);
    expect(first.headers[REPLAYED]).toBeUndefined();
    expect(retry.headers[REPLAYED]).toBe('true');
  };

  it('a retry with the same key and body gets the same answer and writes nothing again', async () => {
    const c = await capTable(t);
    const key = newKey();
    const first = await issueWith(c, key, issuance(c));
    expect(first.status).toBe(201);
    const retry = await issueWith(c, key, issuance(c));
    expectReplay(first, retry);
    // The same request whatever the order of its keys and its white space.
    const { member, security, quantity, issueDate } = issuance(c);
    const reordered = await c.owner.agent
      .post(`/v1/organization/${c.org.id}/shareholding`)
      .set(KEY, key)
      .set('Content-Type', 'application/json')
      .send(`{ "issueDate": "${issueDate}", "quantity": "${quantity}",
               "security": "${security}", "member": "${member}" }`);
    expectReplay(first, reordered);

    expect(await shareholdings(c.owner.agent, c.org.id)).toHaveLength(1);
    expect(await logged(c.org.id, 'TX_STOCK_ISSUANCE')).toBe(1);
    expect(await eventCount(c.org.id, 'shareholding.created')).toBe(1);
    expect(await keyRows(key)).toEqual([{ state: 'done', status: 201 }]);
  });

  it('without the header every request runs', async () => {
    const c = await capTable(t);
    const path = `/v1/organization/${c.org.id}/shareholding`;
    await c.owner.agent.post(path).send(issuance(c)).expect(201);
    const again = await c.owner.agent.post(path).send(issuance(c)).expect(201);
    expect(again.headers[REPLAYED]).toBeUndefined();
    expect(await shareholdings(c.owner.agent, c.org.id)).toHaveLength(2);
  });

  it('the same key with another body, or on another route, is 422 idempotencyKeyReused and writes nothing', async () => {
    const c = await capTable(t);
    const key = newKey();
    await issueWith(c, key, issuance(c)).expect(201);
    const reused = {
      error: 'Unprocessable Entity',
      key: 'idempotencyKeyReused',
      message: expect.any(String),
    };

    const otherBody = await issueWith(c, key, issuance(c, '101'));
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual(reused);
    const otherRoute = await c.owner.agent
      .post(`/v1/organization/${c.org.id}/legend`)
      .set(KEY, key)
      .send({ name: 'Rule 144', text: 'Restricted.' });
    expect(otherRoute.status).toBe(422);
    expect(otherRoute.body).toEqual(reused);

    expect(await shareholdings(c.owner.agent, c.org.id)).toHaveLength(1);
    expect(await logged(c.org.id, 'TX_STOCK_ISSUANCE')).toBe(1);
    expect((await c.owner.agent.get(`/v1/organization/${c.org.id}/legend`)).body).toEqual([]);
  });

  it('a malformed key is 400 invalidIdempotencyKey and writes nothing', async () => {
    const c = await capTable(t);
    for (const key of ['k'.repeat(256), 'clé', '']) {
      const res = await issueWith(c, key, issuance(c));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ key: 'invalidIdempotencyKey' });
    }
    await issueWith(c, 'k'.repeat(255), issuance(c)).expect(201);
    expect(await shareholdings(c.owner.agent, c.org.id)).toHaveLength(1);
  });

  it('a retry while the first request still runs is 409 idempotencyKeyInProgress; once it is done, its answer', async () => {
    const c = await capTable(t);
    const key = newKey();
    // Another session holds the log: the first issuance claims its key, then waits to write.
    const session = new Client({ connectionString: t.database.url });
    await session.connect();
    let first: Promise<Response>;
    try {
      await session.query('BEGIN');
      await session.query('LOCK TABLE equity_transaction IN EXCLUSIVE MODE');
      first = issueWith(c, key, issuance(c)).then((r) => r);
      await eventually(async () => (await keyRows(key))[0]?.state === 'running');
      const retry = await issueWith(c, key, issuance(c));
      expect(retry.status).toBe(409);
      expect(retry.body).toEqual({
        error: 'Conflict',
        key: 'idempotencyKeyInProgress',
        message: expect.any(String),
      });
      await session.query('COMMIT');
    } finally {
      await session.end();
    }
    const answered = await first!;
    expect(answered.status).toBe(201);
    expectReplay(answered, await issueWith(c, key, issuance(c)));
    expect(await shareholdings(c.owner.agent, c.org.id)).toHaveLength(1);
  });

  it('the same issuance sent twice at once with one key: one shareholding, and no second answer of its own', async () => {
    const c = await capTable(t);
    const key = newKey();
    const answers = await Promise.all(
      [1, 2, 3].map(() => issueWith(c, key, issuance(c)).then((r) => r)),
    );
    const created = answers.filter((r) => r.status === 201);
    const running = answers.filter((r) => r.status === 409);
    expect(created.length + running.length).toBe(3);
    expect(created.length).toBeGreaterThanOrEqual(1);
    // Every 201 is the one answer: the others are its replays.
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of running) expect(r.body.key).toBe('idempotencyKeyInProgress');
    expect(await shareholdings(c.owner.agent, c.org.id)).toHaveLength(1);
    expect(await logged(c.org.id, 'TX_STOCK_ISSUANCE')).toBe(1);
  });

  it('a transfer retried while racing itself transfers once', async () => {
    const c = await capTable(t);
    const held = await issue(c.owner.agent, c.org.id, {
      member: c.alice.id,
      security: c.security.id,
      quantity: '1000',
    });
    const key = newKey();
    const transfer = () =>
      c.owner.agent
        .post(`/v1/organization/${c.org.id}/shareholding/transfer`)
        .set(KEY, key)
        .send({ shareholding: held.id, toMember: c.bob.id, quantity: '300', date: '2024-06-01' })
        .then((r) => r);
    const answers = await Promise.all([transfer(), transfer(), transfer()]);
    expect(answers.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(new Set(answers.filter((r) => r.status === 201).map((r) => r.body.id)).size).toBe(1);
    // And after the race, a late retry still gets the transfer's answer.
    const late = await transfer();
    expect(late.status).toBe(201);
    expect(late.headers[REPLAYED]).toBe('true');

    expect(await logged(c.org.id, 'TX_STOCK_TRANSFER')).toBe(1);
    const active = (await shareholdings(c.owner.agent, c.org.id)).filter(
      (s) => s.status === 'active',
    );
    expect(active.map((s) => [s.member, s.quantity]).sort()).toEqual(
      [
        [c.alice.id, '700'],
        [c.bob.id, '300'],
      ].sort(),
    );
  });

  it('keys are per caller: another user sending the same key and body gets their own execution', async () => {
    const c = await capTable(t);
    const admin = await memberAgent(t, c.owner.agent, c.org.id, 'Admin');
    const key = newKey();
    const mine = await issueWith(c, key, issuance(c));
    const theirs = await issueWith(c, key, issuance(c), admin.agent);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers[REPLAYED]).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(await shareholdings(c.owner.agent, c.org.id)).toHaveLength(2);
    // Each then gets their own answer back.
    expect((await issueWith(c, key, issuance(c), admin.agent)).body.id).toBe(theirs.body.id);
    expect((await issueWith(c, key, issuance(c))).body.id).toBe(mine.body.id);
  });

  it('a caller the guards refuse claims no key', async () => {
    const c = await capTable(t);
    const viewer = await memberAgent(t, c.owner.agent, c.org.id, 'Viewer');
    const key = newKey();
    expect((await issueWith(c, key, issuance(c), viewer.agent)).status).toBe(403);
    expect(await keyRows(key)).toEqual([]);
  });

  it('a refusal (400) is kept: the retry gets the same 400 even once the request would succeed', async () => {
    const c = await capTable(t);
    const key = newKey();
    const first = await issueWith(c, key, issuance(c, '2000000'));
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({ key: 'insufficientShares' });
    // Now the class could issue them; the key still answers what it answered.
    await c.owner.agent
      .post(`/v1/organization/${c.org.id}/security/${c.security.id}/shares`)
      .send({ quantity: '5000000' })
      .expect(201);
    expectReplay(first, await issueWith(c, key, issuance(c, '2000000')));
    expect(await shareholdings(c.owner.agent, c.org.id)).toHaveLength(0);
  });

  it('a PUT with a key: the retry replays the first answer, over what changed since', async () => {
    const c = await capTable(t);
    const key = newKey();
    const valuation = {
      organization: c.org.id,
      type: '409A',
      pricePerShare: '0.85',
      effectiveDate: '2024-03-31',
    };
    const put = () => c.owner.agent.put('/v1/valuation').set(KEY, key).send(valuation);
    const first = await put();
    expect(first.status).toBe(200);
    expectReplay(first, await put());
    const list = await c.owner.agent.get(`/v1/organization/${c.org.id}/valuation`).expect(200);
    expect(list.body).toHaveLength(1);
    expect(await eventCount(c.org.id, 'valuation.created')).toBe(1);

    const path = `/v1/organization/${c.org.id}/security/${c.security.id}`;
    const renamed = (name: string) => ({
      name,
      classType: 'common',
      idPrefix: 'CS-',
      authorizedShares: '1000000',
    });
    const putKey = newKey();
    const renaming = await c.owner.agent.put(path).set(KEY, putKey).send(renamed('Class A'));
    expect(renaming.status).toBe(200);
    await c.owner.agent.put(path).send(renamed('Class B')).expect(200);
    const retry = await c.owner.agent.put(path).set(KEY, putKey).send(renamed('Class A'));
    expectReplay(renaming, retry);
    expect((await c.owner.agent.get(path).expect(200)).body.name).toBe('Class B');
  });

  it('a CSV import with a key imports once; another file or a dry run with the key is 422', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const file = Buffer.from(
      'holderName,holderEmail,security,classType,quantity,pricePerShare,issueDate,certificateNumber\n' +
        'Ann,ann@example.com,Common,common,10,,2024-01-15,\n',
    );
    const key = newKey();
    const upload = (content: Buffer, query = '') =>
      owner.agent
        .post(`/v1/organization/${org.id}/import${query}`)
        .set(KEY, key)
        .attach('file', content, 'captable.csv');
    const first = await upload(file);
    expect(first.status).toBe(201);
    expectReplay(first, await upload(file));
    expect(
      (await upload(Buffer.concat([file, Buffer.from('Bo,,Common,common,1,,2024-01-15,\n')])))
        .status,
    ).toBe(422);
    expect((await upload(file, '?dryRun=true')).status).toBe(422);
    expect(await shareholdings(owner.agent, org.id)).toHaveLength(1);
    expect(await eventCount(org.id, 'shareholding.imported')).toBe(1);
  });

  it('a 409 that says "try again" is not kept: the retry runs', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const zipped = await packageZip(coherentPackage());
    const key = newKey();
    const upload = () =>
      owner.agent
        .post(`/v1/organization/${org.id}/ocf`)
        .set(KEY, key)
        .attach('file', zipped, 'package.zip');
    // Another process imports into the organization: 409 importInProgress.
    const session = new Client({ connectionString: t.database.url });
    await session.connect();
    try {
      await session.query(`SELECT pg_advisory_lock(${IMPORT_LOCK_KEY})`, [org.id]);
      const busy = await upload();
      expect(busy.status).toBe(409);
      expect(busy.body.key).toBe('importInProgress');
    } finally {
      await session.end();
    }
    const imported = await upload();
    expect(imported.status).toBe(201);
    expect(imported.headers[REPLAYED]).toBeUndefined();
    // A second OCF import would be 409 capTableNotEmpty; the retry is the first answer.
    expectReplay(imported, await upload());
  });

  const store = () => t.get<IdempotencyStore>(IdempotencyStore);
  /** What the store keeps for an applied claim in these tests (the interceptor's is rendered). */
  const LOST = { status: 409, body: '{}' };

  /**
   * A key and the request an issuance with it would claim, as its server would before it stops
   * (the same body was sent with another key: that row has the request's fingerprint).
   */
  const keyedIssuance = async () => {
    const c = await capTable(t);
    const sent = newKey();
    await issueWith(c, sent, issuance(c)).expect(201);
    const [request] = (await db.query(
      `SELECT user_id AS "userId", method, path, fingerprint FROM idempotency_key WHERE key = $1`,
      [sent],
    )) as { userId: string; method: string; path: string; fingerprint: string }[];
    const key = newKey();
    return { c, key, request: { ...request, key } };
  };

  /** The key's claim or answer as if its time had run out. */
  const lapse = (key: string) =>
    db.query(`UPDATE idempotency_key SET expires_at = now() - interval '1 second' WHERE key = $1`, [
      key,
    ]);

  it('a claim whose request died holds its key for a lease only: 409 until it lapses, then a retry runs', async () => {
    const { c, key, request } = await keyedIssuance();
    const died = { ...request, claimId: randomUUID() };
    expect(await store().claim(died, LOST)).toBe('claimed');
    const [{ lease }] = await db.query(
      `SELECT extract(epoch FROM expires_at - now())::int AS lease FROM idempotency_key WHERE key = $1`,
      [key],
    );
    expect(lease).toBeGreaterThan(50);
    expect(lease).toBeLessThanOrEqual(60);
    const held = await issueWith(c, key, issuance(c));
    expect([held.status, held.body.key]).toEqual([409, 'idempotencyKeyInProgress']);
    await lapse(key);
    const retry = await issueWith(c, key, issuance(c));
    expect(retry.status).toBe(201);
    expect(retry.headers[REPLAYED]).toBeUndefined();
    expect(await keyRows(key)).toEqual([{ state: 'done', status: 201 }]);
    expect(await shareholdings(c.owner.agent, c.org.id)).toHaveLength(2);
  });

  it('a claim whose request wrote and then died is never run again: after its lease, 409 idempotencyKeyApplied, kept', async () => {
    const { c, key, request } = await keyedIssuance();
    const died = { ...request, claimId: randomUUID() };
    expect(await store().claim(died, LOST)).toBe('claimed');
    // What the UnitOfWork does in the died request's write transaction.
    await db.transaction((manager) => store().markApplied(manager, died));
    const held = await issueWith(c, key, issuance(c));
    expect([held.status, held.body.key]).toEqual([409, 'idempotencyKeyInProgress']);
    await lapse(key);
    const before = await shareholdings(c.owner.agent, c.org.id);
    const retry = await issueWith(c, key, issuance(c));
    expect([retry.status, retry.body.key]).toEqual([409, 'idempotencyKeyApplied']);
    const again = await issueWith(c, key, issuance(c));
    expect([again.status, again.body.key, again.headers[REPLAYED]]).toEqual([
      409,
      'idempotencyKeyApplied',
      'true',
    ]);
    expect(await shareholdings(c.owner.agent, c.org.id)).toHaveLength(before.length);
  });

  it('a keyed write marks its claim applied in its own transaction; a refused one does not', async () => {
    const { c } = await keyedIssuance();
    const written = newKey();
    expect((await issueWith(c, written, issuance(c))).status).toBe(201);
    const refused = newKey();
    expect((await issueWith(c, refused, issuance(c, '-1'))).status).toBe(400);
    const rows = (await db.query(
      `SELECT key, applied_at IS NOT NULL AS applied FROM idempotency_key WHERE key = ANY($1)`,
      [[written, refused]],
    )) as { key: string; applied: boolean }[];
    expect(Object.fromEntries(rows.map((r) => [r.key, r.applied]))).toEqual({
      [written]: true,
      [refused]: false,
    });
  });

  it('a stalled request whose claim was taken over cannot store its answer over the retry’s claim', async () => {
    const { key, request } = await keyedIssuance();
    const stalled = { ...request, claimId: randomUUID() };
    const retry = { ...request, claimId: randomUUID() };
    expect(await store().claim(stalled, LOST)).toBe('claimed');
    await lapse(key);
    expect(await store().claim(retry, LOST)).toBe('claimed');
    await store().complete(stalled, 201, '{"from":"stalled"}');
    await store().release(stalled, LOST);
    expect(await keyRows(key)).toEqual([{ state: 'running', status: null }]);
    await store().complete(retry, 201, '{"from":"retry"}');
    const [row] = await db.query(
      `SELECT response_body AS body FROM idempotency_key WHERE key = $1`,
      [key],
    );
    expect(row.body).toBe('{"from":"retry"}');
  });

  it('a key past its 24 hours counts as absent, and the sweep deletes it', async () => {
    const c = await capTable(t);
    const key = newKey();
    const first = await issueWith(c, key, issuance(c));
    await lapse(key);
    const later = await issueWith(c, key, issuance(c));
    expect(later.status).toBe(201);
    expect(later.headers[REPLAYED]).toBeUndefined();
    expect(later.body.id).not.toBe(first.body.id);

    const kept = newKey();
    await issueWith(c, kept, issuance(c)).expect(201);
    await lapse(key);
    expect(await t.get<Scheduler>(Scheduler).run('idempotency:key-sweep')).toBeGreaterThanOrEqual(
      1,
    );
    expect(await keyRows(key)).toEqual([]);
    expect(await keyRows(kept)).toEqual([{ state: 'done', status: 201 }]);
  });

  it('every POST, PUT and PATCH of the cap table that writes, and the imports, take the header', async () => {
    const doc = await openApiDocument(t.app);
    const READS = new Set([
      'Query_run',
      'Modeling_round',
      'Modeling_waterfall',
      'VestingSchedules_project',
    ]);
    const IMPORTS = new Set(['CapTableCsv_import', 'OcfImport_import']);
    const marked: string[] = [];
    const unmarked: string[] = [];
    for (const item of Object.values(doc.paths)) {
      for (const method of ['post', 'put', 'patch'] as const) {
        const op = item[method];
        if (!op?.operationId) continue;
        if (!op.tags?.includes('cap table') && !IMPORTS.has(op.operationId)) continue;
        const takesKey = (op.parameters ?? []).some(
          (p) => 'name' in p && p.name === KEY && p.in === 'header',
        );
        if (takesKey) {
          marked.push(op.operationId);
          expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['409', '422']));
        } else unmarked.push(op.operationId);
      }
    }
    expect(unmarked.sort()).toEqual([...READS].sort());
    expect(marked).toEqual(
      expect.arrayContaining([...IMPORTS, 'OrganizationShareholdings_transfer']),
    );
  });
});
