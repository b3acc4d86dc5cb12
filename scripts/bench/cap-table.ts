/**
 * The cap table part of `npm run bench`: an organization with many holders (10,000 by default),
 * each a member with one shareholding of one share class, seeded in seconds; the ledger check
 * that proves the seed is a valid ledger; and the dashboard timings.
 *
 * Holder i holds 100 + (i × 7919 mod 10,000) shares (all different, 100 to 10,099), issued on a
 * date spread over 2,000 days from 2020-01-01 in holder order.
 *
 * Seeding: the organization, the share class, holder 1 (member) and its shareholding go through
 * the HTTP API, so the service itself makes one of everything. The other holders are then
 * inserted by set-based SQL, in one transaction, as copies of what the API made for holder 1
 * with the per-holder fields changed: a legal entity and a member (Shareholder role) each, a
 * shareholding with the next certificate number (`CS-2` ...), a share block numbered on from
 * the class's next share number, and a TX_STOCK_ISSUANCE row of the log (holder 1's payload
 * with its ids, quantity and date replaced), recorded in holder order. The class gets the
 * issued total and its next certificate and share numbers, and the resource versions the API
 * would have bumped (`member`, `shareholding`, `billing`) are bumped, so no list cache can serve
 * what it held before. Not made: the outbox rows (domain events) of the SQL-made holders, which
 * only the relay (off in the bench) and its consumers read. `ledger:verify` (the CLI, built)
 * must then find that the tables equal a replay of the log, or the bench stops.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { call, fetchText } from './http';

export interface CapTable {
  organizationId: string;
  holders: number;
  /** The issue date of the last holder: an `asOf` the current tables answer. */
  lastIssueDate: string;
  /**
   * The day before it: a past date (the last holders' issuances are later), of nearly every
   * holder, which the ledger's moves answer.
   */
  pastDate: string;
  /** The holders issued shares on or before `pastDate`. */
  pastHolders: number;
  apiMs: number;
  sqlMs: number;
}

/** Holder `i` (from 1): the same definition for the API call and the SQL. */
function holder(i: number, holders: number) {
  const day = new Date(Date.UTC(2020, 0, 1) + Math.floor((i * 2000) / holders) * 86_400_000);
  return {
    name: `Holder ${i}`,
    email: `holder-${i}@example.com`,
    quantity: String(100 + ((i * 7919) % 10_000)),
    issueDate: day.toISOString().slice(0, 10),
  };
}

export async function seedCapTable(
  url: string,
  cookie: string,
  databaseUrl: string,
  holders: number,
): Promise<CapTable> {
  const started = Date.now();
  const org = await call(url, 'POST', '/v1/organization', cookie, { name: 'Bench Cap Table Inc.' });
  const base = `/v1/organization/${org.id}`;
  const security = await call(url, 'POST', `${base}/security`, cookie, {
    name: 'Common Stock',
    classType: 'common',
    idPrefix: 'CS-',
    authorizedShares: String(holders * 20_000),
    parValue: '0.0001',
  });
  const first = holder(1, holders);
  const member = await call(url, 'POST', `${base}/member`, cookie, {
    name: first.name,
    email: first.email,
    title: 'Investor',
  });
  const template = await call(url, 'POST', `${base}/shareholding`, cookie, {
    member: member.id,
    security: security.id,
    quantity: first.quantity,
    pricePerShare: '0.0001',
    issueDate: first.issueDate,
  });
  const apiMs = Date.now() - started;

  const rest = Array.from({ length: holders - 1 }, (_, k) => ({
    i: k + 2,
    ...holder(k + 2, holders),
  }));
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const sqlStarted = Date.now();
  try {
    await db.query('BEGIN');
    await db.query('SELECT 1 FROM security WHERE id = $1 FOR UPDATE', [security.id]);
    // What the API made for holder 1, and where the class's numbering stands.
    await db.query(
      `CREATE TEMP TABLE bench_template ON COMMIT DROP AS
       SELECT h.organization_id, h.security_id, h.price_per_share, h.legend_ids, h.consideration,
              s.id_prefix, s.next_certificate_number, s.next_share_number,
              m.title, m.role_id, e.kind, t.actor_user_id, t.payload
       FROM shareholding h
       JOIN security s ON s.id = h.security_id
       JOIN member m ON m.id = h.member_id
       JOIN entity e ON e.id = m.entity_id
       JOIN equity_transaction t ON t.organization_id = h.organization_id
        AND t.type = 'TX_STOCK_ISSUANCE' AND t.payload->>'shareholdingId' = h.id::text
       WHERE h.id = $1`,
      [template.id],
    );
    await db.query(
      `CREATE TEMP TABLE bench_holder ON COMMIT DROP AS
       SELECT h.i, h.name, lower(h.email) AS email, h.quantity::numeric AS quantity,
              h.issue_date::date AS issue_date,
              gen_random_uuid() AS entity_id, gen_random_uuid() AS member_id,
              gen_random_uuid() AS holding_id, gen_random_uuid() AS tx_id,
              -- one a millisecond after now, in holder order (lists are oldest first)
              now() + h.i * interval '1 millisecond' AS created,
              t.next_certificate_number + row_number() OVER w - 1 AS certificate,
              t.next_share_number
                + coalesce(sum(h.quantity::numeric) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
                AS from_number
       FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[])
            AS h(i, name, email, quantity, issue_date)
       CROSS JOIN bench_template t
       WINDOW w AS (ORDER BY h.i)`,
      [
        rest.map((h) => h.i),
        rest.map((h) => h.name),
        rest.map((h) => h.email),
        rest.map((h) => h.quantity),
        rest.map((h) => h.issueDate),
      ],
    );
    await db.query(
      `INSERT INTO entity (id, kind, name, email, created)
       SELECT b.entity_id, t.kind, b.name, b.email, b.created
       FROM bench_holder b CROSS JOIN bench_template t ORDER BY b.i`,
    );
    await db.query(
      `INSERT INTO member (id, organization_id, user_id, entity_id, name, email, title, role_id,
                           status, created, updated)
       SELECT b.member_id, t.organization_id, NULL, b.entity_id, b.name, b.email, t.title,
              t.role_id, 'active', b.created, b.created
       FROM bench_holder b CROSS JOIN bench_template t ORDER BY b.i`,
    );
    await db.query(
      `INSERT INTO shareholding (id, organization_id, member_id, security_id, quantity,
                                price_per_share, issue_date, certificate_number, status,
                                legend_ids, consideration, transferred_from_id, created, updated)
       SELECT b.holding_id, t.organization_id, b.member_id, t.security_id, b.quantity,
              t.price_per_share, b.issue_date, t.id_prefix || b.certificate, 'active',
              t.legend_ids, t.consideration, NULL, b.created, b.created
       FROM bench_holder b CROSS JOIN bench_template t ORDER BY b.i`,
    );
    await db.query(
      `INSERT INTO share_block (organization_id, security_id, shareholding_id, from_number, to_number)
       SELECT t.organization_id, t.security_id, b.holding_id, b.from_number,
              b.from_number + b.quantity - 1
       FROM bench_holder b CROSS JOIN bench_template t ORDER BY b.i`,
    );
    // The log in holder order: `sequence` follows the order rows are inserted in.
    await db.query(
      `INSERT INTO equity_transaction (id, organization_id, type, effective_date, actor_user_id,
                                      recorded_at, payload)
       SELECT b.tx_id, t.organization_id, 'TX_STOCK_ISSUANCE', b.issue_date, t.actor_user_id,
              b.created,
              t.payload || jsonb_build_object(
                'shareholdingId', b.holding_id, 'memberId', b.member_id,
                'quantity', trim_scale(b.quantity)::text,
                'issueDate', to_char(b.issue_date, 'YYYY-MM-DD'))
       FROM bench_holder b CROSS JOIN bench_template t ORDER BY b.i`,
    );
    // The moves the ledger's writes keep (ledger/moves): the holding's shares and its class's
    // issued shares, from its issue date.
    await db.query(
      `INSERT INTO ledger_move (organization_id, transaction_id, effective_date, dated_by, kind,
                                record_id, member_id, security_id, creates, quantity, deltas)
       SELECT t.organization_id, b.tx_id, b.issue_date, b.holding_id, 'shareholdings',
              b.holding_id, b.member_id, t.security_id, true, b.quantity, NULL
       FROM bench_holder b CROSS JOIN bench_template t
       UNION ALL
       SELECT t.organization_id, b.tx_id, b.issue_date, b.holding_id, 'securities',
              t.security_id, NULL, NULL, false, NULL,
              jsonb_build_object('issued', trim_scale(b.quantity)::text)
       FROM bench_holder b CROSS JOIN bench_template t`,
    );
    await db.query(
      `UPDATE security s
       SET issued_shares = s.issued_shares + x.total,
           next_certificate_number = s.next_certificate_number + x.n,
           next_share_number = s.next_share_number + x.total,
           updated = now()
       FROM (SELECT coalesce(sum(quantity), 0) AS total, count(*)::int AS n FROM bench_holder) x
       WHERE s.id = $1`,
      [security.id],
    );
    await db.query(
      `INSERT INTO resource_version (organization_id, resource, version)
       SELECT $1, r, 1 FROM unnest(ARRAY['billing', 'member', 'shareholding']) AS r
       ON CONFLICT (organization_id, resource)
       DO UPDATE SET version = resource_version.version + 1`,
      [org.id],
    );
    await db.query('COMMIT');
    // As autovacuum would after such a load: plans for the real row counts.
    await db.query(
      'ANALYZE entity, member, shareholding, share_block, equity_transaction, security, ledger_move',
    );
  } catch (err) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await db.end();
  }
  const lastIssueDate = holder(holders, holders).issueDate;
  const pastDate = new Date(Date.parse(`${lastIssueDate}T00:00:00Z`) - 86_400_000)
    .toISOString()
    .slice(0, 10);
  let pastHolders = 0;
  for (let i = 1; i <= holders; i++) if (holder(i, holders).issueDate <= pastDate) pastHolders++;
  return {
    organizationId: org.id,
    holders,
    lastIssueDate,
    pastDate,
    pastHolders,
    apiMs,
    sqlMs: Date.now() - sqlStarted,
  };
}

/**
 * `ledger:verify <organization>` of the built CLI (what `npm run cli` runs): replays the log and
 * compares it with the tables. Throws with the CLI's own report when they differ.
 */
export async function verifyLedger(
  root: string,
  env: Record<string, string>,
  organizationId: string,
): Promise<{ ms: number; output: string }> {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [join(root, 'dist', 'src', 'cli.js'), 'ledger:verify', organizationId],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) {
    throw new Error(
      `the seeded cap table is not a valid ledger (ledger:verify, exit ${code}):\n${output}`,
    );
  }
  return { ms: Date.now() - started, output: output.trim() };
}

export interface Timing {
  median: number;
  max: number;
  bytes: number;
}

interface DashboardBody {
  asOf: string;
  issued: string;
  byHolder: unknown[];
}

/**
 * GET /v1/captable/:organization/dashboard, sequentially after a warm-up: `n` requests of today's
 * (from the tables), `asOfN` of `?asOf=` the last issue date (nothing later: the tables too) and
 * `n` of `?asOf=` the day before (a past date: the ledger's moves), the two series of `n`
 * interleaved so both see the same machine. Checks that every holder is listed, that the last
 * issue date says what the tables say, and that the past date lists the holders of then.
 */
export async function timeDashboard(
  url: string,
  cookie: string,
  capTable: CapTable,
  n = 20,
  asOfN = 5,
): Promise<{ current: Timing; asOf: Timing; past: Timing; warning?: string }> {
  const path = `${url}/v1/captable/${capTable.organizationId}/dashboard`;
  const timed = async (target: string) => {
    const started = performance.now();
    const body = (await fetchText(target, cookie)).body;
    return { ms: performance.now() - started, body };
  };
  const timing = (ms: number[], body: string): Timing => {
    const sorted = [...ms].sort((a, b) => a - b);
    return {
      median: sorted[Math.floor(sorted.length / 2)],
      max: sorted[sorted.length - 1],
      bytes: Buffer.byteLength(body),
    };
  };
  const series = async (targets: string[], count: number) => {
    for (const target of targets) await fetchText(target, cookie); // warm-up, not recorded
    const ms = targets.map(() => [] as number[]);
    const bodies = targets.map(() => '');
    for (let i = 0; i < count; i++) {
      for (const [k, target] of targets.entries()) {
        const r = await timed(target);
        ms[k].push(r.ms);
        bodies[k] = r.body;
      }
    }
    return targets.map((_, k) => ({
      timing: timing(ms[k], bodies[k]),
      body: JSON.parse(bodies[k]) as DashboardBody,
    }));
  };
  const [current, past] = await series([path, `${path}?asOf=${capTable.pastDate}`], n);
  const [asOf] = await series([`${path}?asOf=${capTable.lastIssueDate}`], asOfN);
  if (current.body.byHolder.length !== capTable.holders) {
    throw new Error(
      `the dashboard lists ${current.body.byHolder.length} holders, not ${capTable.holders}`,
    );
  }
  if (past.body.byHolder.length !== capTable.pastHolders) {
    throw new Error(
      `the dashboard as of ${capTable.pastDate} lists ${past.body.byHolder.length} holders, not ${capTable.pastHolders}`,
    );
  }
  const same = (d: DashboardBody) => JSON.stringify({ ...d, asOf: undefined });
  return {
    current: current.timing,
    asOf: asOf.timing,
    past: past.timing,
    warning:
      same(current.body) === same(asOf.body)
        ? undefined
        : `the dashboard as of ${capTable.lastIssueDate} differs from today's (tables)`,
  };
}
