/**
 * `npm run bench`: the request path against its yardstick, on this machine, in one run.
 *
 * Seeds its own database, starts the built service (list cache on, and a second one with
 * LIST_CACHE=off) and a bare Node `http` + `pg` server running the same SQL as the service, and
 * measures two lists:
 *   - the member list: an organization with 101 members (made through the API);
 *   - the shareholding list, `GET .../shareholding?limit=100` of an organization with 10,000
 *     holders, each a member with one shareholding. The organization, its share class and
 *     holder 1 are made through the API, the other holders by set-based SQL copying what the
 *     API made (see cap-table.ts); `ledger:verify` of the built CLI must then pass, or the bench
 *     stops. It also times the cap table dashboard of that organization (20 sequential requests
 *     from the tables, 20 of `?asOf=` a past date, read from the ledger's moves, interleaved with
 *     them, and 5 of `?asOf=` the last issue date).
 * Both organizations live in the one database, so the member list is read next to the other
 * organization's 10,000 members (`--only=members` measures it alone, as before).
 * For each list it checks that the services and the bare server answer the same JSON byte for
 * byte, counts the SQL round trips (on two more instances of the service, connected through a
 * counting proxy in front of PostgreSQL; the timed ones connect directly, as the bare server
 * does) and Redis commands (INFO commandstats) per request, then drives every target with autocannon in
 * interleaved rounds (after a 2 s warm-up of each) and prints the medians of requests/s, p99 and
 * CPU per request, and the ratios against the targets (member list ≥ 0.8 of bare, shareholding
 * list ≥ 0.7 of bare, dashboard < 300 ms).
 *   npm run bench -- --seconds=10 --rounds=3 --connections=50   (the defaults)
 *   npm run bench -- --only=members        only the member list (or --only=shareholdings: the
 *                                          shareholding list and the dashboard)
 *   npm run bench -- --only=dashboard      only the dashboard of the 10,000 holders: today's, and
 *                                          as of a past date (the ledger's moves; target within
 *                                          1.2 × today's)
 *   npm run bench -- --only=vesting        only cap-math's vesting projection of 10,000 grants
 *                                          (target < 1 s; no database), which every run also
 *                                          does at the end, once the servers are stopped
 *   npm run bench -- --only=modeling       only the round model and the exit waterfall on the
 *                                          10,000 holders with 5,000 option grants (see modeling.ts),
 *                                          then their dashboard today and as of a past date
 *   npm run bench -- --only=csv            only the cap table CSV import and export of 100,000
 *                                          rows (targets < 10 s, RSS growth < 100 MB; see csv.ts)
 *                                          and the OCF export of those holdings (RSS growth
 *                                          < 100 MB; see ocf.ts), which every run also does at the
 *                                          end, on a database and services of their own
 *   npm run bench -- --only=transfers      only the write path: POST .../shareholding/transfer
 *                                          between the 10,000 holders, beside a bare Node + pg
 *                                          twin running the same transaction (see transfer.ts);
 *                                          every run does it last (--transfer-connections=20)
 *   npm run bench -- --holders=10000       holders of the cap table organization
 *   npm run bench -- --csv-rows=100000 --csv-holders=10000   size of the CSV import
 *   npm run bench -- --only=load          only the load of 200 sessions (lists, dashboard, issuances,
 *                                          transfers) on two instances, then one, relay on; no 5xx
 *                                          (see load.ts; --load-seconds=60 a phase)
 *   npm run bench -- --profile   also writes a CPU profile of the service (list cache on) under
 *                                .data/bench and prints where its time goes
 */
import { ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import { Client } from 'pg';
import { SHAREHOLDING_LIST_SQL } from '../../src/cap-table/shareholdings/shareholding.repository';
import { freePort } from '../../src/common';
import { MEMBER_LIST_SQL } from '../../src/organizations/members/member.repository';
import { adminQuery, quoteIdent, withDatabase } from '../pg-admin';
import { seedCapTable, timeDashboard, Timing, verifyLedger } from './cap-table';
import { benchExport, benchImport, reportCsv } from './csv';
import { benchLoad, reportLoad } from './load';
import { createDatabase, dropBench, servers } from './bench-db';
import { cpuMs, stopAll } from './processes';
import { benchModeling, ModelingTimings, reportModeling } from './modeling';
import { benchOcfExport, reportOcf } from './ocf';
import { call, fetchText } from './http';
import { PgCounter } from './pg-counter';
import {
  countTransfer,
  reportTransfers,
  TransferTimings,
  transferLoad,
  transferPairs,
} from './transfer';
import { summarise } from './profile-summary';
import { benchVesting, reportVesting } from './vesting';

const root = join(__dirname, '..', '..');
const SECONDS = Number(option('seconds', '10'));
const ROUNDS = Number(option('rounds', '3'));
const CONNECTIONS = Number(option('connections', '50'));
const ONLY = option('only', 'all');
const HOLDERS = Number(option('holders', '10000'));
const CSV_ROWS = Number(option('csv-rows', '100000'));
const CSV_HOLDERS = Number(option('csv-holders', '10000'));
const MEMBERS = 100;
/** The page the shareholding list is measured on. */
const HOLDING_PAGE = 100;
const PROFILE = process.argv.includes('--profile');
const PROFILE_DIR = join(root, '.data', 'bench');
const DASHBOARD_TARGET_MS = 300;
/** The write part's load (the issue's figure): transfers wait on their class's lock. */
const TRANSFER_CONNECTIONS = Number(option('transfer-connections', '20'));
const LOAD_SECONDS = Number(option('load-seconds', '60'));

function option(name: string, fallback: string): string {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
}

interface Run {
  rps: number;
  p99: number;
  cpuMsPerRequest: number;
}

interface Counts {
  sqlRoundTrips: number;
  sqlStatements: number;
  redisCommands: number;
}

/** One list measured against the bare server: its scenarios and what was counted of it. */
interface List {
  kind: 'members' | 'shareholdings';
  title: string;
  scenarios: Record<string, (seconds?: number) => Promise<Run>>;
  counts: Record<'cached' | 'uncached', Counts>;
  results: Record<string, Run[]>;
}

async function main() {
  if (
    ![
      'all',
      'members',
      'shareholdings',
      'dashboard',
      'transfers',
      'vesting',
      'csv',
      'modeling',
      'load',
    ].includes(ONLY)
  )
    throw new Error(
      `--only=${ONLY}: members, shareholdings, dashboard, transfers, vesting, csv, modeling or load`,
    );
  if (ONLY === 'vesting') {
    reportVesting(await benchVesting(root));
    return;
  }
  if (ONLY === 'csv' || ONLY === 'load') {
    await (ONLY === 'csv' ? benchCsv() : runLoad());
    return;
  }
  if (!Number.isInteger(HOLDERS) || HOLDERS < 1)
    throw new Error(`--holders=${option('holders', '')}: a positive whole number`);
  const { server, redisUrl } = servers();
  const database = `ledgerline_bench_${process.pid}`;
  const databaseUrl = withDatabase(server, database);
  const children: ChildProcess[] = [];
  const counting: ChildProcess[] = [];
  const counter = new PgCounter(new URL(server).hostname, Number(new URL(server).port || 5432));
  const redis = new Redis(redisUrl);
  try {
    console.log(
      `bench: database ${database}, ${SECONDS}s × ${ROUNDS} rounds, ${CONNECTIONS} connections` +
        (ONLY === 'all' ? '' : `, only ${ONLY}`),
    );
    await createDatabase(server, database);
    await counter.start();
    const viaCounter = new URL(databaseUrl);
    viaCounter.hostname = '127.0.0.1';
    viaCounter.port = String(counter.port);

    const prefix = `llbench:${process.pid}:`;
    // The timed services reach PostgreSQL directly, as the bare server does; SQL is counted on
    // two more instances of their own behind the counting proxy, stopped once they have counted
    // (a proxy in the measured path would cost the service a hop the bare server does not pay).
    const service = await startService(children, databaseUrl, redisUrl, prefix, 'on');
    const uncached = await startService(children, databaseUrl, redisUrl, prefix, 'off');
    const counted = {
      on: await startService(counting, viaCounter.toString(), redisUrl, prefix, 'on'),
      off: await startService(counting, viaCounter.toString(), redisUrl, prefix, 'off'),
    };
    const cookie = await signUp(service.url, databaseUrl);
    // The write part (transfer.ts), against a bare twin started by the caller.
    const transfersOf = (bare: Target, organizationId: string) =>
      benchTransfers(
        service,
        bare,
        counter,
        viaCounter.toString(),
        databaseUrl,
        redisUrl,
        prefix,
        cookie,
        organizationId,
      );

    // The lists, each with the route of the bare server answering it.
    const lists: List[] = [];
    const routes: Record<string, { sql: string; params: unknown[] }> = {};
    const pending: (Pick<List, 'kind' | 'title'> & { path: string; barePath: string })[] = [];
    let dashboard: Awaited<ReturnType<typeof timeDashboard>> | undefined;
    let capTable: Awaited<ReturnType<typeof seedCapTable>> | undefined;
    let modeling: ModelingTimings | undefined;
    if (!['shareholdings', 'modeling', 'transfers', 'dashboard'].includes(ONLY)) {
      const organizationId = await seedMembers(service.url, cookie);
      routes['/member'] = { sql: MEMBER_LIST_SQL, params: [organizationId, null] };
      pending.push({
        title: 'member list',
        path: `/v1/organization/${organizationId}/member`,
        barePath: '/member',
        kind: 'members',
      });
    }
    if (ONLY !== 'members') {
      capTable = await seedCapTable(service.url, cookie, databaseUrl, HOLDERS);
      console.log(
        `cap table seeded: ${HOLDERS} holders in ${((capTable.apiMs + capTable.sqlMs) / 1000).toFixed(1)} s ` +
          `(organization, class and holder 1 through the API: ${capTable.apiMs} ms; the rest by SQL: ${capTable.sqlMs} ms)`,
      );
      const verified = await verifyLedger(
        root,
        serviceEnv(databaseUrl, redisUrl, prefix, 'on'),
        capTable.organizationId,
      );
      console.log(`${verified.output} (${verified.ms} ms)`);
      if (ONLY === 'dashboard') {
        const timed = await timeDashboard(service.url, cookie, capTable);
        if (timed.warning) console.log(`WARNING: ${timed.warning}`);
        report([], { ...timed, asOfDate: capTable.lastIssueDate, pastDate: capTable.pastDate });
        return;
      }
      if (ONLY === 'modeling') {
        modeling = await benchModeling(service.url, cookie, databaseUrl, capTable);
        reportModeling(modeling);
        // The as-of dashboard where options weigh: the grants' moves are read beside the shares'.
        console.log(`\nthe dashboard with the ${modeling.options} option grants:`);
        const timed = await timeDashboard(service.url, cookie, capTable);
        if (timed.warning) console.log(`WARNING: ${timed.warning}`);
        report([], { ...timed, asOfDate: capTable.lastIssueDate, pastDate: capTable.pastDate });
        return;
      }
      if (ONLY === 'transfers') {
        const bare = await startBare(children, databaseUrl, routes);
        reportTransfers(await transfersOf(bare, capTable.organizationId));
        return;
      }
      routes['/shareholding'] = {
        sql: SHAREHOLDING_LIST_SQL,
        params: [capTable.organizationId, null, 'active', HOLDING_PAGE, 0],
      };
      pending.push({
        title: `shareholding list (${HOLDERS} holders)`,
        path: `/v1/organization/${capTable.organizationId}/shareholding?limit=${HOLDING_PAGE}`,
        barePath: `/shareholding?limit=${HOLDING_PAGE}`,
        kind: 'shareholdings',
      });
    }

    const bare = await startBare(children, databaseUrl, routes);
    for (const { kind, title, path, barePath } of pending) {
      const bodies = await Promise.all([
        fetchText(`${service.url}${path}`, cookie),
        fetchText(`${uncached.url}${path}`, cookie),
        fetchText(`${bare.url}${barePath}`, ''),
      ]);
      if (bodies[0].body !== bodies[2].body || bodies[1].body !== bodies[2].body) {
        throw new Error(`${title}: the service and the bare server answer different JSON`);
      }
      const rows = (JSON.parse(bodies[2].body) as unknown[]).length;
      console.log(
        `${title}: same JSON from all three: ${rows} ${kind}, ${Buffer.byteLength(bodies[2].body)} bytes`,
      );
      const etag = bodies[0].etag;
      const scenarios: Record<string, (seconds?: number) => Promise<Run>> = {
        'service (list cache on)': (s) => load(service, path, { Cookie: cookie }, s),
      };
      // The 304 path is the same for every list: measured on the member list only.
      if (kind === 'members')
        scenarios['service, If-None-Match'] = (s) =>
          load(service, path, { Cookie: cookie, 'If-None-Match': etag }, s);
      scenarios['service (LIST_CACHE=off)'] = (s) => load(uncached, path, { Cookie: cookie }, s);
      scenarios['bare http + pg'] = (s) => load(bare, barePath, {}, s);
      lists.push({
        kind,
        title,
        scenarios,
        counts: {
          cached: await countPerRequest(counter, redis, `${counted.on.url}${path}`, cookie),
          uncached: await countPerRequest(counter, redis, `${counted.off.url}${path}`, cookie),
        },
        results: {},
      });
    }
    await stopAll(counting);
    if (capTable) {
      dashboard = await timeDashboard(service.url, cookie, capTable);
      if (dashboard.warning) console.log(`WARNING: ${dashboard.warning}`);
      // After the dashboard, whose figures are of the 10,000 holders alone.
      if (ONLY === 'all')
        modeling = await benchModeling(service.url, cookie, databaseUrl, capTable);
    }

    // JIT warm-up, not recorded.
    for (const list of lists) for (const run of Object.values(list.scenarios)) await run(2);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const list of lists) {
        for (const [name, run] of Object.entries(list.scenarios)) {
          const last = await run();
          (list.results[name] ??= []).push(last);
          console.log(
            `round ${round} ${list.title}, ${name}: ${last.rps.toFixed(0)} req/s, p99 ${last.p99} ms`,
          );
        }
      }
    }
    // Last: the transfers change the cap table the lists and the dashboard read.
    let transfers: TransferTimings | undefined;
    if (capTable && ONLY === 'all') {
      transfers = await transfersOf(bare, capTable.organizationId);
    }
    report(
      lists,
      capTable && dashboard
        ? { ...dashboard, asOfDate: capTable.lastIssueDate, pastDate: capTable.pastDate }
        : undefined,
    );
    if (modeling) reportModeling(modeling);
    if (transfers) reportTransfers(transfers);
  } finally {
    await stopAll(counting);
    await stopAll(children);
    if (PROFILE) printProfile();
    await counter.close();
    await redis.quit().catch(() => undefined);
    await adminQuery(server, `DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
  }
  // Pure computation: measured with the servers stopped, so nothing competes for the CPU.
  if (ONLY === 'all') reportVesting(await benchVesting(root));
  if (ONLY === 'all') await benchCsv();
}

/**
 * Transfers between the holders of the cap table (transfer.ts): SQL counted on an instance of the
 * service behind the counting proxy, then the service and the bare twin in interleaved rounds.
 */
async function benchTransfers(
  service: Target,
  bare: Target,
  counter: PgCounter,
  viaCounterUrl: string,
  databaseUrl: string,
  redisUrl: string,
  prefix: string,
  cookie: string,
  organizationId: string,
): Promise<TransferTimings> {
  const pairs = await transferPairs(databaseUrl, organizationId);
  const path = `/v1/organization/${organizationId}/shareholding/transfer`;
  const next = { next: 0 };
  const counting: ChildProcess[] = [];
  const counted = await startService(counting, viaCounterUrl, redisUrl, prefix, 'on');
  const counts = await countTransfer(counter, counted, path, cookie, pairs, next);
  await stopAll(counting);
  const connections = TRANSFER_CONNECTIONS;
  const run = (target: Target, route: string, withCookie: string, seconds: number) =>
    transferLoad(target, route, withCookie, pairs, seconds, connections, cpuMs, next);
  await run(service, path, cookie, 2);
  await run(bare, '/transfer', '', 2);
  const timings: TransferTimings = { ...counts, connections, service: [], bare: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    const s = await run(service, path, cookie, SECONDS);
    const b = await run(bare, '/transfer', '', SECONDS);
    timings.service.push(s);
    timings.bare.push(b);
    console.log(
      `round ${round} transfers: service ${s.rps.toFixed(0)} req/s (p99 ${s.p99} ms), bare ${b.rps.toFixed(0)} req/s (p99 ${b.p99} ms)`,
    );
  }
  return timings;
}

/**
 * The CSV import and export (csv.ts), on a database, a storage folder and services of their own:
 * one service imports (then `ledger:verify` checks the result), a fresh one exports.
 */
async function benchCsv() {
  if (
    !Number.isInteger(CSV_ROWS) ||
    CSV_ROWS < 1 ||
    !Number.isInteger(CSV_HOLDERS) ||
    CSV_HOLDERS < 1
  )
    throw new Error('--csv-rows and --csv-holders: positive whole numbers');
  const { server, redisUrl } = servers();
  const database = `ledgerline_bench_csv_${process.pid}`;
  const storage = mkdtempSync(join(tmpdir(), 'ledgerline-bench-storage-'));
  const prefix = `llbench:${process.pid}:csv:`;
  const children: ChildProcess[] = [];
  try {
    console.log(
      `
bench csv: database ${database}, ${CSV_ROWS} rows of ${CSV_HOLDERS} holders, storage ${storage}`,
    );
    const databaseUrl = await createDatabase(server, database);
    const storageEnv = { STORAGE_DIR: storage };
    const importer = await startService(children, databaseUrl, redisUrl, prefix, 'on', storageEnv);
    const cookie = await signUp(importer.url, databaseUrl);
    const imported = await benchImport(importer, cookie, CSV_ROWS, CSV_HOLDERS);
    const verified = await verifyLedger(
      root,
      serviceEnv(databaseUrl, redisUrl, prefix, 'on'),
      imported.organizationId,
    );
    await stopAll(children);
    const exporter = await startService(children, databaseUrl, redisUrl, prefix, 'on', storageEnv);
    const exported = await benchExport(exporter, cookie, imported.organizationId, CSV_ROWS);
    reportCsv(imported, exported, verified);
    // The OCF export of the same 100,000 holdings, again on a service started afresh.
    await stopAll(children);
    const ocfExporter = await startService(
      children,
      databaseUrl,
      redisUrl,
      prefix,
      'on',
      storageEnv,
    );
    reportOcf(
      await benchOcfExport(ocfExporter, cookie, imported.organizationId, CSV_ROWS, CSV_HOLDERS),
    );
  } finally {
    await stopAll(children);
    rmSync(storage, { recursive: true, force: true });
    await dropBench(server, database, redisUrl, prefix);
  }
}

/** `--only=load` (load.ts), on a database and instances of its own; fails unless all was 2xx. */
async function runLoad() {
  const { server, redisUrl } = servers();
  const database = `ledgerline_bench_load_${process.pid}`;
  const prefix = `llbench:${process.pid}:load:`;
  const children: ChildProcess[] = [];
  let passed = false;
  try {
    const databaseUrl = await createDatabase(server, database);
    console.log(`bench load: database ${database}, ${LOAD_SECONDS} s a phase`);
    const start = (env: Record<string, string>) =>
      startService(children, databaseUrl, redisUrl, prefix, 'on', env);
    const stop = (t: Target) =>
      stopAll(
        children.splice(
          children.findIndex((c) => c.pid === t.pid),
          1,
        ),
      );
    passed = reportLoad(await benchLoad({ databaseUrl, start, stop, cpuMs }, LOAD_SECONDS));
  } finally {
    await stopAll(children);
    await dropBench(server, database, redisUrl, prefix);
  }
  if (!passed) throw new Error('load: an answer was not 2xx (see above)');
}

interface Target {
  url: string;
  pid: number;
}

/** The environment of the built service (and of its CLI) in the bench. */
function serviceEnv(
  databaseUrl: string,
  redisUrl: string,
  prefix: string,
  listCache: 'on' | 'off',
): Record<string, string> {
  return {
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    LIST_CACHE: listCache,
    LOG_LEVEL: 'warn',
    // Background work would blur the counts: no relay polling during the bench.
    OUTBOX_RELAY_INTERVAL_MS: '0',
    SWAGGER_ENABLED: 'false',
    SESSION_SECRET: 'bench-session-secret-of-at-least-32-chars',
    ENCRYPTION_KEY: '1'.repeat(64),
  };
}

async function startService(
  children: ChildProcess[],
  databaseUrl: string,
  redisUrl: string,
  prefix: string,
  listCache: 'on' | 'off',
  extraEnv: Record<string, string> = {},
): Promise<Target> {
  const port = await freePort();
  const flags = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).config?.nodeFlags ?? ''
  )
    .split(' ')
    .filter(Boolean);
  const profiling =
    PROFILE && listCache === 'on'
      ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, '-r', join(__dirname, 'exit-on-term.js')]
      : [];
  const child = spawn(
    process.execPath,
    [...flags, ...profiling, join(root, 'dist', 'src', 'main.js')],
    {
      cwd: root,
      env: {
        ...serviceEnv(databaseUrl, redisUrl, prefix, listCache),
        ...extraEnv,
        PORT: String(port),
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null)
      throw new Error('the service exited during start-up (run `npm run build` first?)');
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, pid: child.pid! };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the service did not start');
}

async function startBare(
  children: ChildProcess[],
  databaseUrl: string,
  routes: Record<string, { sql: string; params: unknown[] }>,
): Promise<Target> {
  const port = await freePort();
  const child = fork(join(__dirname, 'bare-server.js'), [], {
    env: {
      BARE_DATABASE_URL: databaseUrl,
      BARE_ROUTES: JSON.stringify(routes),
      BARE_PORT: String(port),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  await new Promise((resolve) => child.once('message', resolve));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid! };
}

/** The owner: signed up and logged in through the API; answers the session cookie. */
async function signUp(url: string, databaseUrl: string): Promise<string> {
  const email = 'bench-owner@example.com';
  const password = 'bench owner passphrase';
  await call(url, 'POST', '/v1/user', '', { email, password, name: 'Bench Owner' });
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query('UPDATE user_account SET email_verified = true WHERE email = $1', [email]);
  await db.end();
  const login = await fetch(`${url}/v1/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return (login.headers.get('set-cookie') ?? '').split(';')[0];
}

/** An organization of the owner and 100 more members, through the service's API. */
async function seedMembers(url: string, cookie: string): Promise<string> {
  const org = await call(url, 'POST', '/v1/organization', cookie, { name: 'Bench Inc.' });
  for (let i = 1; i <= MEMBERS; i++) {
    await call(url, 'POST', `/v1/organization/${org.id}/member`, cookie, {
      name: `Holder ${i}`,
      email: `holder-${i}@example.com`,
      title: i % 3 ? 'Investor' : 'Employee',
    });
  }
  return org.id;
}

/**
 * SQL round trips and Redis commands per request, over 200 sequential requests, less what the
 * processes do meanwhile on their own (Bull's polling), measured over an idle window as long.
 */
async function countPerRequest(
  counter: PgCounter,
  redis: Redis,
  url: string,
  cookie: string,
): Promise<Counts> {
  const n = 200;
  await fetchText(url, cookie); // warm the cache, if any
  const window = async (work: () => Promise<void>) => {
    const before = redisCommands(await redis.info('commandstats'));
    counter.reset();
    const started = Date.now();
    await work();
    const after = redisCommands(await redis.info('commandstats'));
    // The INFO call between the snapshots is ours.
    return {
      ms: Date.now() - started,
      sql: counter.roundTrips,
      statements: counter.statements,
      redis: after - before - 1,
    };
  };
  const busy = await window(async () => {
    for (let i = 0; i < n; i++) await fetchText(url, cookie);
  });
  const idle = await window(() => new Promise((r) => setTimeout(r, busy.ms)));
  const perRequest = (busyCount: number, idleCount: number) =>
    Math.max(0, busyCount - idleCount) / n;
  return {
    sqlRoundTrips: perRequest(busy.sql, idle.sql),
    sqlStatements: perRequest(busy.statements, idle.statements),
    redisCommands: perRequest(busy.redis, idle.redis),
  };
}

function redisCommands(info: string): number {
  return [...info.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

async function load(
  target: Target,
  path: string,
  headers: Record<string, string>,
  seconds = SECONDS,
): Promise<Run> {
  const cpuBefore = cpuMs(target.pid);
  const result = await autocannon({
    url: `${target.url}${path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers,
  });
  const cpu = cpuMs(target.pid) - cpuBefore;
  if (result.non2xx && !headers['If-None-Match'])
    throw new Error(`${result.non2xx} answers were not 2xx`);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    cpuMsPerRequest: cpu / Math.max(1, result.requests.total),
  };
}

function printProfile() {
  const files = readdirSync(PROFILE_DIR)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(PROFILE_DIR, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (files[0]) console.log(`\nCPU profile of the service (${files[0]}):\n${summarise(files[0])}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function report(
  lists: List[],
  dashboard:
    { current: Timing; asOf: Timing; past: Timing; asOfDate: string; pastDate: string } | undefined,
) {
  const checks: [string, boolean, string][] = [];
  for (const list of lists) {
    const row = (name: string) => {
      const runs = list.results[name];
      return {
        rps: median(runs.map((r) => r.rps)),
        p99: median(runs.map((r) => r.p99)),
        cpu: median(runs.map((r) => r.cpuMsPerRequest)),
      };
    };
    const bare = row('bare http + pg');
    console.log(`\n${list.title}:`);
    console.log('| | req/s | p99 | CPU per request | ratio to bare |');
    console.log('|---|---|---|---|---|');
    for (const name of Object.keys(list.results)) {
      const r = row(name);
      console.log(
        `| ${name} | ${r.rps.toFixed(0)} | ${r.p99} ms | ${r.cpu.toFixed(2)} ms | ${(r.rps / bare.rps).toFixed(2)} |`,
      );
    }
    const { cached: c, uncached: u } = list.counts;
    console.log('per request (200 sequential requests, counted):');
    console.log(
      `  list cache on:  ${c.sqlRoundTrips} SQL round trips (${c.sqlStatements} statements), ${c.redisCommands} Redis commands`,
    );
    console.log(
      `  LIST_CACHE=off: ${u.sqlRoundTrips} SQL round trips (${u.sqlStatements} statements), ${u.redisCommands} Redis commands`,
    );
    const cached = row('service (list cache on)');
    if (list.kind === 'members') {
      const notModified = row('service, If-None-Match');
      checks.push(
        [
          `member list ≥ 0.8 of bare`,
          cached.rps / bare.rps >= 0.8,
          (cached.rps / bare.rps).toFixed(2),
        ],
        [`p99 ≤ 1.5 × bare p99`, cached.p99 <= 1.5 * bare.p99, `${cached.p99} vs ${bare.p99} ms`],
        [
          `If-None-Match ≥ 2 × bare`,
          notModified.rps / bare.rps >= 2,
          (notModified.rps / bare.rps).toFixed(2),
        ],
      );
    } else {
      checks.push([
        `shareholding list ≥ 0.7 of bare`,
        cached.rps / bare.rps >= 0.7,
        `${(cached.rps / bare.rps).toFixed(2)} (p99 ${cached.p99} vs ${bare.p99} ms)`,
      ]);
    }
  }
  if (dashboard) {
    const { current, asOf, past, asOfDate, pastDate } = dashboard;
    const ms = (t: Timing) => `median ${t.median.toFixed(0)} ms, max ${t.max.toFixed(0)} ms`;
    console.log(`\ndashboard (${HOLDERS} holders), sequential requests after a warm-up:`);
    console.log(`  today, from the tables (20): ${ms(current)}, ${current.bytes} bytes`);
    console.log(
      `  ?asOf=${asOfDate}, nothing later: the tables (5): ${ms(asOf)}, ${asOf.bytes} bytes`,
    );
    console.log(
      `  ?asOf=${pastDate}, a past date: the moves (20, interleaved with today's): ${ms(past)}, ${past.bytes} bytes`,
    );
    checks.push(
      [
        `dashboard < ${DASHBOARD_TARGET_MS} ms`,
        current.median < DASHBOARD_TARGET_MS,
        `median ${current.median.toFixed(0)} ms (max ${current.max.toFixed(0)} ms)`,
      ],
      [
        `dashboard ?asOf < ${DASHBOARD_TARGET_MS} ms`,
        asOf.median < DASHBOARD_TARGET_MS,
        `median ${asOf.median.toFixed(0)} ms (max ${asOf.max.toFixed(0)} ms)`,
      ],
      [
        `dashboard as of a past date ≤ 1.2 × today's`,
        past.median <= 1.2 * current.median,
        `${(past.median / current.median).toFixed(2)} (median ${past.median.toFixed(0)} vs ${current.median.toFixed(0)} ms)`,
      ],
    );
  }
  console.log('\ntargets:');
  for (const [name, ok, value] of checks)
    console.log(`  ${ok ? 'PASS' : 'FAIL'} ${name}: ${value}`);
}

main().catch((err: Error) => {
  console.error(`bench failed: ${err.message}`);
  process.exit(1);
});
