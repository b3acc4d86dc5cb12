/**
 * The two-instance fault checks, against any two instances of the service behind one balancer.
 * Run by scripts/scale/compose-check.sh (the compose `scale` profile, faults through `docker`) and
 * by scripts/scale/local-check.sh (local processes, a private redis-server and nginx with the same
 * docker/nginx.conf); or by hand:
 *
 *   npx ts-node --transpile-only scripts/scale/fault-check.ts --url=http://localhost:8080 \
 *     --psql='psql postgres://…/ledgerline -q -v ON_ERROR_STOP=1' \
 *     --kill='docker kill -s KILL <one API container>' \
 *     --restart-redis='docker restart <the Redis container>'
 *
 * --url            the balancer (default http://localhost:8080).
 * --psql           a command that runs the SQL on its stdin in the service's database (the check's
 *                  user is marked verified there: production mails the code, nobody reads it here).
 * --kill           a shell command that ends one of the two instances with SIGKILL.
 * --restart-redis  a shell command that restarts Redis (its data kept: appendonly).
 * --burst-seconds=8, --workers=8: the burst of writes the kill lands in.
 *
 * The checks, in order (each prints PASS or FAIL; the exit code is 1 if any failed):
 *  1. a user logged in through the balancer: the session holds on both instances (requests
 *     alternate), a write is read back;
 *  2. Redis restarted under requests: only 2xx or 503 meanwhile, then 2xx within 60 s, the same
 *     session still valid (same user), every write acknowledged meanwhile readable;
 *  3. one instance killed (SIGKILL) during a burst of share issuances from parallel workers: every
 *     acknowledged issuance is readable afterwards, the balancer keeps answering (only 2xx from 3 s
 *     after the kill; before that a request in flight on the killed instance may get 502), and
 *     reads and writes after the burst all succeed.
 * Every request says `X-Forwarded-Proto: https`, as a TLS-terminating proxy in front of the
 * balancer would: in production the session cookie is Secure and set over https only.
 */
import { execSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';

function option(name: string, fallback?: string): string {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg ? arg.slice(name.length + 3) : fallback;
  if (value === undefined) throw new Error(`--${name}=… is required (see the header)`);
  return value;
}

const URL_ = option('url', 'http://localhost:8080').replace(/\/$/, '');
const BURST_SECONDS = Number(option('burst-seconds', '8'));
const WORKERS = Number(option('workers', '8'));
/** How long after the kill a request may still fail (in flight on the killed instance). */
const SETTLE_MS = 3000;

const results: [string, boolean, string][] = [];

interface Answer {
  status: number;
  body: Record<string, unknown> & { id?: string };
  cookie?: string;
}

async function http(method: string, path: string, cookie = '', body?: object): Promise<Answer> {
  const res = await fetch(`${URL_}${path}`, {
    method,
    headers: {
      'X-Forwarded-Proto': 'https',
      ...(cookie ? { Cookie: cookie } : {}),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: Answer['body'] = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = { text };
  }
  return {
    status: res.status,
    body: parsed,
    cookie: res.headers.get('set-cookie')?.split(';')[0],
  };
}

/** The status, or 0 when the request got no answer (refused, reset, timed out). */
async function attempt(method: string, path: string, cookie = '', body?: object) {
  return http(method, path, cookie, body).catch((): Answer => ({ status: 0, body: {} }));
}

async function expectOk(method: string, path: string, cookie = '', body?: object) {
  const res = await http(method, path, cookie, body);
  if (res.status >= 300)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

function check(name: string, ok: boolean, detail: string) {
  results.push([name, ok, detail]);
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
}

function run(command: string) {
  console.log(`$ ${command}`);
  execSync(command, { stdio: 'inherit', shell: '/bin/sh' });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, seconds: number, ok: () => Promise<boolean>) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await ok().catch(() => false)) return Date.now();
    await sleep(250);
  }
  throw new Error(`${what}: not within ${seconds} s`);
}

interface World {
  cookie: string;
  userId: string;
  org: string;
  security: string;
  member: string;
}

/** A user signed up, verified (SQL), logged in; an organization with a class and a member. */
async function setUp(): Promise<World> {
  const email = `scale-check-${randomUUID().slice(0, 8)}@example.com`;
  const password = `scale check ${randomUUID()}`;
  await expectOk('POST', '/v1/user', '', { email, password, name: 'Scale Check' });
  execSync(option('psql'), {
    input: `UPDATE user_account SET email_verified = true WHERE email = '${email}';`,
    stdio: ['pipe', 'inherit', 'inherit'],
    shell: '/bin/sh',
  });
  const login = await expectOk('POST', '/v1/user/login', '', { email, password });
  if (!login.cookie) throw new Error('the login set no cookie (X-Forwarded-Proto not passed?)');
  const cookie = login.cookie;
  const userId = (login.body.user as { id: string }).id;
  const org = (await expectOk('POST', '/v1/organization', cookie, { name: 'Scale Check Inc.' }))
    .body.id!;
  const security = (
    await expectOk('POST', `/v1/organization/${org}/security`, cookie, {
      name: 'Common Stock',
      classType: 'common',
      idPrefix: 'CS-',
      authorizedShares: '1000000000000',
      parValue: '0.0001',
    })
  ).body.id!;
  const member = (
    await expectOk('POST', `/v1/organization/${org}/member`, cookie, {
      name: 'Holder',
      email: 'holder@example.com',
      title: 'Investor',
    })
  ).body.id!;
  return { cookie, userId, org, security, member };
}

const issue = (w: World) =>
  attempt('POST', `/v1/organization/${w.org}/shareholding`, w.cookie, {
    member: w.member,
    security: w.security,
    quantity: '10',
    pricePerShare: '0.0001',
    issueDate: '2026-01-01',
  });

/** The ids of every shareholding of the organization, read through the balancer. */
async function holdings(w: World): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let offset = 0; ; offset += 1000) {
    const page = await http(
      'GET',
      `/v1/organization/${w.org}/shareholding?limit=1000&offset=${offset}`,
      w.cookie,
    );
    if (page.status !== 200) throw new Error(`the shareholding list answered ${page.status}`);
    const rows = page.body as unknown as { id: string }[];
    for (const row of rows) ids.add(row.id);
    if (rows.length < 1000) return ids;
  }
}

function missing(acknowledged: string[], present: Set<string>) {
  return acknowledged.filter((id) => !present.has(id));
}

async function sessionAndWrites(w: World) {
  const users = new Set<string>();
  for (let i = 0; i < 6; i++) {
    const res = await http('GET', '/v1/user/session', w.cookie);
    users.add(res.status === 200 ? (res.body.user as { id: string }).id : `status ${res.status}`);
  }
  check(
    'the session holds through the balancer (6 requests, both instances)',
    users.size === 1 && users.has(w.userId),
    [...users].join(', '),
  );
  const written = await issue(w);
  const read = await holdings(w);
  check(
    'a write through the balancer is read back',
    written.status === 201 && read.has(written.body.id!),
    `issuance ${written.status}, list of ${read.size}`,
  );
}

async function redisRestart(w: World) {
  const statuses = new Map<number, number>();
  const acknowledged: string[] = [];
  let stop = false;
  const traffic = (async () => {
    for (let i = 0; !stop; i++) {
      const res = i % 2 ? await issue(w) : await attempt('GET', '/v1/user/session', w.cookie);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 201) acknowledged.push(res.body.id!);
      await sleep(100);
    }
  })();
  await sleep(1000);
  const restarted = Date.now();
  run(option('restart-redis'));
  const recovered = await waitFor('recovery after the Redis restart', 60, async () => {
    const res = await http('GET', '/v1/user/session', w.cookie);
    const written = await issue(w);
    if (written.status === 201) acknowledged.push(written.body.id!);
    return res.status === 200 && written.status === 201;
  });
  await sleep(1000);
  stop = true;
  await traffic;
  const seen = Object.fromEntries(statuses);
  check(
    'during the Redis restart only 2xx or 503',
    [...statuses.keys()].every((s) => (s >= 200 && s < 300) || s === 503),
    JSON.stringify(seen),
  );
  check(
    'recovery after the Redis restart',
    true,
    `2xx again ${((recovered - restarted) / 1000).toFixed(1)} s after the restart command began`,
  );
  const session = await http('GET', '/v1/user/session', w.cookie);
  check(
    'the session survives the Redis restart (same user)',
    session.status === 200 && (session.body.user as { id: string }).id === w.userId,
    `status ${session.status}`,
  );
  const lost = missing(acknowledged, await holdings(w));
  check(
    'every write acknowledged around the Redis restart is readable',
    lost.length === 0,
    `${acknowledged.length} acknowledged, ${lost.length} missing`,
  );
}

async function killDuringBurst(w: World) {
  const acknowledged: string[] = [];
  const early = new Map<number, number>();
  const late = new Map<number, number>();
  let killedAt = Infinity;
  const end = Date.now() + BURST_SECONDS * 1000;
  const workers = Array.from({ length: WORKERS }, async () => {
    while (Date.now() < end) {
      const sent = Date.now();
      const res = await issue(w);
      if (res.status === 201) acknowledged.push(res.body.id!);
      const bucket = sent >= killedAt + SETTLE_MS ? late : early;
      bucket.set(res.status, (bucket.get(res.status) ?? 0) + 1);
    }
  });
  await sleep(Math.min(2000, (BURST_SECONDS * 1000) / 4));
  killedAt = Date.now();
  run(option('kill'));
  await Promise.all(workers);
  check(
    `the balancer keeps answering from ${SETTLE_MS / 1000} s after the kill (only 2xx)`,
    late.size > 0 && [...late.keys()].every((s) => s >= 200 && s < 300),
    `before: ${JSON.stringify(Object.fromEntries(early))}, after: ${JSON.stringify(Object.fromEntries(late))}`,
  );
  const before = await holdings(w);
  const lost = missing(acknowledged, before);
  // A write whose answer was lost (502: in flight on the killed instance) may have committed or
  // not; either is right, as long as it is whole (the service's transactions) and retried with
  // an Idempotency-Key by a client that must know.
  const unanswered = [...early.keys()].filter((s) => s >= 300 || s === 0);
  check(
    'every issuance acknowledged during the kill is readable',
    acknowledged.length > 0 && lost.length === 0,
    `${acknowledged.length} acknowledged, ${lost.length} missing${lost.length ? `: ${lost.slice(0, 5).join(', ')}` : ''}; ` +
      `${before.size} holdings in all, ${unanswered.reduce((n, s) => n + early.get(s)!, 0)} unanswered writes`,
  );
  const after: number[] = [];
  for (let i = 0; i < 10; i++) {
    after.push((await attempt('GET', '/v1/user/session', w.cookie)).status);
    after.push((await issue(w)).status);
  }
  check(
    'reads and writes after the kill (20 requests)',
    after.every((s) => s >= 200 && s < 300),
    JSON.stringify(after.filter((s) => s >= 300)),
  );
}

async function main() {
  for (const required of ['psql', 'kill', 'restart-redis']) option(required);
  console.log(`fault checks against ${URL_}`);
  await waitFor('the balancer answering /health 200', 120, async () => {
    return (await fetch(`${URL_}/health`, { signal: AbortSignal.timeout(3000) })).status === 200;
  });
  const w = await setUp();
  await sessionAndWrites(w);
  await redisRestart(w);
  await killDuringBurst(w);
  const failed = results.filter(([, ok]) => !ok);
  console.log(
    failed.length
      ? `\n${failed.length} of ${results.length} checks FAILED`
      : `\nall ${results.length} checks passed`,
  );
  process.exit(failed.length ? 1 : 0);
}

main().catch((err: Error) => {
  console.error(`fault check failed: ${err.message}`);
  process.exit(1);
});
