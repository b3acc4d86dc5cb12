import { Client } from 'pg';
import { Agent, request } from 'undici';

/**
 * `npm run bench -- --only=load`: the service as users meet it, on two instances and then on one.
 *
 * Two instances of the built service share one PostgreSQL database and one Redis, with the outbox
 * relay on (the rest of the bench turns it off), and 200 sessions, each a user logged in with a
 * cookie session who owns an organization (a share class, 3 members, a holding each), run closed
 * loops of mixed requests: the shareholding and member lists, the cap table dashboard, share
 * issuances and transfers (no think time: each session sends its next request when the last one
 * answered). Every request goes to the next instance in turn, so a session's cookie is used on
 * both. After a warm-up, each phase lasts `--load-seconds` (60); then one instance is stopped
 * (SIGTERM) and the same load runs against the other alone. Any 5xx, other non-2xx answer or
 * transport error fails the run.
 *
 * The load generator is this process: undici's `request` on a keep-alive Agent, the response
 * bodies discarded unread. It shares the machine's cores with the instances, PostgreSQL and
 * Redis, so its own CPU is printed beside theirs.
 */

export interface LoadTarget {
  url: string;
  pid: number;
}

/** What the runner lends the load bench (scripts/bench/run.ts owns the processes). */
export interface LoadDeps {
  databaseUrl: string;
  /** Starts one more instance of the built service with these settings over the bench's own. */
  start(extraEnv: Record<string, string>): Promise<LoadTarget>;
  /** SIGTERM to one instance; resolves once it exited. */
  stop(target: LoadTarget): Promise<void>;
  cpuMs(pid: number): number;
}

export interface LoadPhase {
  instances: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  byKind: Record<string, { n: number; p99: number }>;
  status: Record<string, number>;
  errors: number;
  clientCpuPercent: number;
  serviceCpuPercent: number;
  unrelayed: number;
}

/** The instances' settings in this bench: the relay on (500 ms, the default), 200 sign-ups. */
export const LOAD_ENV = {
  OUTBOX_RELAY_INTERVAL_MS: '500',
  // 200 users sign up from 127.0.0.1; the limit of 20 a client IP would refuse the rest.
  REGISTRATION_IP_LIMIT: '100000',
};

const SESSIONS = 200;
const MEMBERS = 3;
const SETUP_PARALLEL = 10;
const WARM_UP_SECONDS = 5;
const ISSUE_DATE = '2026-01-01';
const TRANSFER_DATE = '2026-01-02';

interface Session {
  cookie: string;
  org: string;
  security: string;
  members: string[];
  holdings: string[];
  n: number;
}

type Kind = 'shareholding list' | 'member list' | 'dashboard' | 'issuance' | 'transfer';

/** The mix, in tenths: 6 reads and 4 writes of every 10 requests. */
const MIX: Kind[] = [
  'shareholding list',
  'dashboard',
  'member list',
  'issuance',
  'shareholding list',
  'transfer',
  'dashboard',
  'issuance',
  'member list',
  'transfer',
];

export async function benchLoad(deps: LoadDeps, seconds: number): Promise<LoadPhase[]> {
  const agent = new Agent({ connections: SESSIONS, keepAliveTimeout: 30_000, pipelining: 1 });
  const a = await deps.start(LOAD_ENV);
  const b = await deps.start(LOAD_ENV);
  try {
    const started = Date.now();
    const sessions = await setUp(agent, [a, b], deps.databaseUrl);
    console.log(
      `load: ${SESSIONS} users signed up and logged in, each with an organization of ${MEMBERS} holders, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const phases: LoadPhase[] = [];
    await drive(agent, sessions, [a, b], WARM_UP_SECONDS, deps);
    phases.push(await drive(agent, sessions, [a, b], seconds, deps));
    printPhase(phases[0]);
    await deps.stop(b);
    await drive(agent, sessions, [a], WARM_UP_SECONDS, deps);
    phases.push(await drive(agent, sessions, [a], seconds, deps));
    printPhase(phases[1]);
    return phases;
  } finally {
    await agent.close();
  }
}

async function send(
  agent: Agent,
  url: string,
  method: 'GET' | 'POST',
  cookie: string,
  body?: object,
): Promise<{ status: number; json?: Record<string, unknown>; setCookie?: string }> {
  const res = await request(url, {
    dispatcher: agent,
    method,
    headers: body ? { 'content-type': 'application/json', cookie } : { cookie },
    body: body ? JSON.stringify(body) : undefined,
  });
  const setCookie = res.headers['set-cookie'];
  const json =
    res.statusCode < 300 ? ((await res.body.json()) as Record<string, unknown>) : undefined;
  if (!json) await res.body.dump();
  return {
    status: res.statusCode,
    json,
    setCookie: Array.isArray(setCookie) ? setCookie[0] : setCookie,
  };
}

async function ok(
  agent: Agent,
  url: string,
  method: 'GET' | 'POST',
  cookie: string,
  body?: object,
) {
  const res = await send(agent, url, method, cookie, body);
  if (res.status >= 300) throw new Error(`set-up: ${method} ${url} answered ${res.status}`);
  return res;
}

/** The users, their sessions and organizations, through the API (the addresses verified in SQL). */
async function setUp(agent: Agent, targets: LoadTarget[], databaseUrl: string): Promise<Session[]> {
  const password = 'load bench passphrase 1';
  const email = (i: number) => `load-${i}@example.com`;
  await parallel(SESSIONS, async (i) => {
    const url = targets[i % targets.length].url;
    await ok(agent, `${url}/v1/user`, 'POST', '', { email: email(i), password, name: `User ${i}` });
  });
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`UPDATE user_account SET email_verified = true WHERE email LIKE 'load-%'`);
  await db.end();
  const sessions: Session[] = [];
  await parallel(SESSIONS, async (i) => {
    const url = targets[i % targets.length].url;
    const login = await ok(agent, `${url}/v1/user/login`, 'POST', '', {
      email: email(i),
      password,
    });
    const cookie = (login.setCookie ?? '').split(';')[0];
    const org = (await ok(agent, `${url}/v1/organization`, 'POST', cookie, { name: `Load ${i}` }))
      .json!.id as string;
    const base = `${url}/v1/organization/${org}`;
    const security = (
      await ok(agent, `${base}/security`, 'POST', cookie, {
        name: 'Common Stock',
        classType: 'common',
        idPrefix: 'CS-',
        authorizedShares: '1000000000000',
        parValue: '0.0001',
      })
    ).json!.id as string;
    const members: string[] = [];
    const holdings: string[] = [];
    for (let m = 0; m < MEMBERS; m++) {
      const member = await ok(agent, `${base}/member`, 'POST', cookie, {
        name: `Holder ${i}-${m}`,
        email: `holder-${i}-${m}@example.com`,
        title: 'Investor',
      });
      members.push(member.json!.id as string);
      const holding = await ok(agent, `${base}/shareholding`, 'POST', cookie, {
        member: member.json!.id,
        security,
        quantity: '1000000',
        pricePerShare: '0.0001',
        issueDate: ISSUE_DATE,
      });
      holdings.push(holding.json!.id as string);
    }
    sessions[i] = { cookie, org, security, members, holdings, n: i };
  });
  return sessions;
}

async function parallel(n: number, work: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: SETUP_PARALLEL }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

/** One request of the session's next kind, to `url`. */
function next(agent: Agent, url: string, s: Session): [Kind, Promise<{ status: number }>] {
  const kind = MIX[s.n++ % MIX.length];
  const base = `${url}/v1/organization/${s.org}`;
  const pick = s.n % MEMBERS;
  switch (kind) {
    case 'shareholding list':
      return [kind, status(agent, `${base}/shareholding?limit=100`, 'GET', s.cookie)];
    case 'member list':
      return [kind, status(agent, `${base}/member`, 'GET', s.cookie)];
    case 'dashboard':
      return [kind, status(agent, `${url}/v1/captable/${s.org}/dashboard`, 'GET', s.cookie)];
    case 'issuance':
      return [
        kind,
        status(agent, `${base}/shareholding`, 'POST', s.cookie, {
          member: s.members[pick],
          security: s.security,
          quantity: '10',
          pricePerShare: '0.0001',
          issueDate: ISSUE_DATE,
        }),
      ];
    case 'transfer':
      return [
        kind,
        status(agent, `${base}/shareholding/transfer`, 'POST', s.cookie, {
          shareholding: s.holdings[pick],
          toMember: s.members[(pick + 1) % MEMBERS],
          quantity: '1',
          date: TRANSFER_DATE,
        }),
      ];
  }
}

/** The status only; the body is discarded (the load generator's CPU stays small). */
async function status(
  agent: Agent,
  url: string,
  method: 'GET' | 'POST',
  cookie: string,
  body?: object,
) {
  const res = await request(url, {
    dispatcher: agent,
    method,
    headers: body ? { 'content-type': 'application/json', cookie } : { cookie },
    body: body ? JSON.stringify(body) : undefined,
  });
  await res.body.dump();
  return { status: res.statusCode };
}

async function drive(
  agent: Agent,
  sessions: Session[],
  targets: LoadTarget[],
  seconds: number,
  deps: LoadDeps,
): Promise<LoadPhase> {
  const latencies: number[] = [];
  const byKind = new Map<Kind, number[]>();
  const statuses: Record<string, number> = {};
  const seen = new Set<number>();
  let errors = 0;
  let turn = 0;
  /** Answers received within the phase (the throughput); the ones in flight at its end add only latencies. */
  let inTime = 0;
  const cpu0 = process.cpuUsage();
  const service0 = targets.map((t) => deps.cpuMs(t.pid));
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    sessions.map(async (s) => {
      while (performance.now() < end) {
        const target = targets[turn++ % targets.length];
        const t0 = performance.now();
        const [kind, sent] = next(agent, target.url, s);
        try {
          const { status: code } = await sent;
          const now = performance.now();
          const ms = now - t0;
          latencies.push(ms);
          if (now <= end) inTime++;
          (byKind.get(kind) ?? byKind.set(kind, []).get(kind)!).push(ms);
          const key = `${Math.floor(code / 100)}xx`;
          statuses[key] = (statuses[key] ?? 0) + 1;
          if (code >= 300 && !seen.has(code)) {
            seen.add(code);
            console.log(`load: ${kind} answered ${code} (the first such answer)`);
          }
        } catch (err) {
          if (errors++ === 0) console.log(`load: ${kind} failed: ${(err as Error).message}`);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const serviceMs = targets.reduce((sum, t, i) => sum + deps.cpuMs(t.pid) - service0[i], 0);
  const kinds: LoadPhase['byKind'] = {};
  for (const [kind, ms] of byKind) kinds[kind] = { n: ms.length, p99: quantile(ms, 0.99) };
  return {
    instances: targets.length,
    seconds: elapsed,
    requests: latencies.length,
    rps: inTime / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    byKind: kinds,
    status: statuses,
    errors,
    clientCpuPercent: ((cpu.user + cpu.system) / 1000 / (elapsed * 1000)) * 100,
    serviceCpuPercent: (serviceMs / (elapsed * 1000)) * 100,
    unrelayed: await unrelayed(deps.databaseUrl),
  };
}

/** Events committed but not yet moved into the queues: the relay kept up if this stays small. */
async function unrelayed(databaseUrl: string): Promise<number> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM outbox_event WHERE relayed_at IS NULL',
    );
    return Number(rows[0].n);
  } finally {
    await db.end();
  }
}

function quantile(xs: number[], q: number): number {
  if (!xs.length) return 0;
  const sorted = Float64Array.from(xs).sort();
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
}

function printPhase(p: LoadPhase) {
  console.log(
    `load, ${p.instances} instance${p.instances > 1 ? 's' : ''}: ${p.rps.toFixed(0)} req/s (${p.requests} answers, the last ${p.seconds.toFixed(1)} s after the start), ` +
      `p50 ${p.p50} ms, p99 ${p.p99} ms; answers ${JSON.stringify(p.status)}, transport errors ${p.errors}; ` +
      `CPU: service ${p.serviceCpuPercent.toFixed(0)}%, load generator ${p.clientCpuPercent.toFixed(0)}% (of one core); ` +
      `events not yet relayed at the end ${p.unrelayed}`,
  );
  for (const [kind, k] of Object.entries(p.byKind))
    console.log(`  ${kind}: ${k.n} requests, p99 ${k.p99} ms`);
}

/** The table and the verdict; true when the run passes (no 5xx, nothing but 2xx, no error). */
export function reportLoad(phases: LoadPhase[]): boolean {
  const [two, one] = phases;
  console.log(`\nload (${SESSIONS} sessions, relay on):`);
  console.log(
    '| instances | req/s | p50 | p99 | 5xx | other non-2xx | errors | service CPU | load generator CPU |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const p of phases) {
    const non2xx = Object.entries(p.status)
      .filter(([k]) => k !== '2xx' && k !== '5xx')
      .reduce((n, [, v]) => n + v, 0);
    console.log(
      `| ${p.instances} | ${p.rps.toFixed(0)} | ${p.p50} ms | ${p.p99} ms | ${p.status['5xx'] ?? 0} | ${non2xx} | ${p.errors} | ${p.serviceCpuPercent.toFixed(0)}% | ${p.clientCpuPercent.toFixed(0)}% |`,
    );
  }
  console.log(`two instances against one: ${(two.rps / one.rps).toFixed(2)} × the throughput`);
  const fails = phases.filter((p) => p.errors || Object.keys(p.status).some((k) => k !== '2xx'));
  console.log(
    `  ${fails.length ? 'FAIL' : 'PASS'} zero 5xx (and nothing but 2xx, no transport error)`,
  );
  return fails.length === 0;
}
