/**
 * The modeling part of `npm run bench` (`--only=modeling`, and in every full run): the round
 * model and the exit waterfall (issue 13) on the bench's cap table of 10,000 holders, given
 * 5,000 option grants and a Series A preferred class first.
 *
 * Seeding, through the HTTP API (the service's own path, so the grants are real ledger
 * transactions): a stock plan of the common class with one pool, 5,000 NSO grants of 1,000
 * shares to the first 5,000 holders (exercise prices $0.10 to $5.09, four requests at a time),
 * and a Series A preferred class ($2.00 original issue price, 1×, seniority 2) issued to 100
 * further holders. Then, for each model: a warm-up request, one share issued (a change to the cap
 * table), the first request after it (the position loaded again: reported apart), and `n`
 * sequential requests (the position cached), of
 * `POST .../model/round` (a $20M round at $100M pre-money with a 10% post-money pool),
 * `POST .../model/waterfall` (a $250M exit) and `GET .../model/waterfall/breakpoints`, timed
 * end to end from the client. Target: each under 500 ms.
 */
import { Client } from 'pg';
import { call } from './http';
import type { CapTable, Timing } from './cap-table';

export const MODEL_TARGET_MS = 500;

export interface ModelingTimings {
  options: number;
  seedMs: number;
  round: ModelTiming;
  waterfall: ModelTiming;
  breakpoints: ModelTiming;
  holders: number;
}

async function seed(
  url: string,
  cookie: string,
  databaseUrl: string,
  capTable: CapTable,
  options: number,
) {
  const org = capTable.organizationId;
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  let members: string[];
  let commonId: string;
  try {
    commonId = (
      await db.query<{ id: string }>(
        `SELECT id FROM security WHERE organization_id = $1 AND deleted_at IS NULL`,
        [org],
      )
    ).rows[0].id;
    members = (
      await db.query<{ id: string }>(
        `SELECT m.id FROM member m JOIN shareholding h ON h.member_id = m.id
         WHERE m.organization_id = $1 ORDER BY m.created, m.id LIMIT $2`,
        [org, options + 100],
      )
    ).rows.map((r) => r.id);
  } finally {
    await db.end();
  }
  const base = `/v1/organization/${org}`;
  const plan = await call(url, 'POST', `${base}/plan`, cookie, {
    name: 'Bench Equity Incentive Plan',
    security: commonId,
    sharesReserved: String(options * 2000),
    pools: [{ name: 'Employees', sharesReserved: String(options * 2000) }],
  });
  const pool = (plan.pools as { id: string }[])[0].id;
  let next = 0;
  const worker = async () => {
    while (next < options) {
      const i = next++;
      await call(url, 'POST', '/v1/holding', cookie, {
        organization: org,
        member: members[i],
        type: 'option_nso',
        plan: plan.id,
        pool,
        quantity: '1000',
        exercisePrice: ((10 + (i % 500)) / 100).toFixed(2),
        grantDate: '2022-01-01',
      });
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  const seriesA = await call(url, 'POST', `${base}/security`, cookie, {
    name: 'Series A Preferred',
    classType: 'preferred',
    idPrefix: 'PA-',
    authorizedShares: '10000000',
    seniority: 2,
    originalIssuePrice: '2',
    liquidationPreferenceMultiple: '1',
  });
  for (const member of members.slice(options, options + 100)) {
    await call(url, 'POST', `${base}/shareholding`, cookie, {
      member,
      security: seriesA.id,
      quantity: '50000',
      pricePerShare: '2',
      issueDate: '2024-06-01',
    });
  }
}

/**
 * A timing of repeated requests (the position cached), and `first`: the first request after a
 * change to the cap table (the position loaded again), in a warmed-up process.
 */
type ModelTiming = Timing & { first: number };

const check = async (res: Response) => {
  const body = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${body}`);
  return body;
};

async function series(
  request: () => Promise<Response>,
  change: () => Promise<unknown>,
  n: number,
): Promise<ModelTiming> {
  await check(await request()); // warm-up (JIT), not recorded
  await change();
  const firstStarted = performance.now();
  await check(await request());
  const first = performance.now() - firstStarted;
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    bytes = Buffer.byteLength(await check(await request()));
    ms.push(performance.now() - started);
  }
  const sorted = [...ms].sort((a, b) => a - b);
  return { median: sorted[Math.floor(n / 2)], max: sorted[n - 1], bytes, first };
}

/** Issues one share of the common class to the first holder, through the API. */
async function changer(url: string, cookie: string, databaseUrl: string, organizationId: string) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ member: string; security: string }>(
      `SELECT h.member_id AS member, h.security_id AS security FROM shareholding h
       JOIN security s ON s.id = h.security_id
       WHERE h.organization_id = $1 AND s.class_type = 'common' LIMIT 1`,
      [organizationId],
    );
    return () =>
      call(url, 'POST', `/v1/organization/${organizationId}/shareholding`, cookie, {
        member: rows[0].member,
        security: rows[0].security,
        quantity: '1',
        issueDate: '2024-01-15',
      });
  } finally {
    await db.end();
  }
}

export async function benchModeling(
  url: string,
  cookie: string,
  databaseUrl: string,
  capTable: CapTable,
  options = 5000,
  n = 10,
): Promise<ModelingTimings> {
  const started = Date.now();
  await seed(url, cookie, databaseUrl, capTable, options);
  const seedMs = Date.now() - started;
  const model = `${url}/v1/captable/${capTable.organizationId}/model`;
  // A change between the warm-up and the first timed request: one more share issued.
  const change = await changer(url, cookie, databaseUrl, capTable.organizationId);
  const post = (path: string, body: object) => () =>
    fetch(`${model}/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify(body),
    });
  const round = await series(
    post('round', {
      preMoneyValuation: '100000000',
      investments: [{ name: 'Lead', amount: '20000000' }],
      optionPoolTopUp: { postMoneyPercent: '10' },
      closingDate: new Date().toISOString().slice(0, 10),
    }),
    change,
    n,
  );
  const waterfall = await series(post('waterfall', { exitValue: '250000000' }), change, n);
  const breakpoints = await series(
    () => fetch(`${model}/waterfall/breakpoints`, { headers: { Cookie: cookie } }),
    change,
    n,
  );
  return { options, seedMs, round, waterfall, breakpoints, holders: capTable.holders };
}

export function reportModeling(m: ModelingTimings) {
  console.log(
    `\nmodeling on ${m.holders} holders and ${m.options} option grants (seeded through the API in ${(m.seedMs / 1000).toFixed(1)} s), sequential requests:`,
  );
  for (const [name, t] of [
    ['POST model/round', m.round],
    ['POST model/waterfall', m.waterfall],
    ['GET model/waterfall/breakpoints', m.breakpoints],
  ] as const) {
    const verdict = Math.max(t.median, t.first) < MODEL_TARGET_MS ? 'PASS' : 'FAIL';
    console.log(
      `  ${verdict} ${name}: median ${t.median.toFixed(0)} ms, max ${t.max.toFixed(0)} ms, ${t.bytes} bytes; first after a change ${t.first.toFixed(0)} ms (target < ${MODEL_TARGET_MS} ms)`,
    );
  }
}
