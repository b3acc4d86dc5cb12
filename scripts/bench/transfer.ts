import autocannon from 'autocannon';
import { Client } from 'pg';
import { PgCounter } from './pg-counter';

/**
 * The write path: `POST .../shareholding/transfer` of one share between holders of the seeded
 * cap table, against a bare Node `http` + `pg` twin that runs the same transaction (lock the class
 * and the holding, update the holdings and their share blocks, insert the log row and the outbox
 * row). Each request moves one share from holder i to holder i+1 (dated after every issue date),
 * so concurrent requests wait on the class lock in both, as real transfers of one class do.
 */

export interface TransferRun {
  rps: number;
  p99: number;
  cpuMsPerRequest: number;
}

export interface TransferTimings {
  roundTrips: number;
  statements: number;
  connections: number;
  service: TransferRun[];
  bare: TransferRun[];
}

interface Target {
  url: string;
  pid: number;
}

export const TRANSFER_DATE = '2026-01-02';

/** The active holdings of the organization, each with the member of the next one. */
export async function transferPairs(databaseUrl: string, organizationId: string) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: string; member: string }>(
      `SELECT id, member_id AS member FROM shareholding
       WHERE organization_id = $1 AND status = 'active' ORDER BY certificate_number`,
      [organizationId],
    );
    return rows.map((h, i) => ({
      shareholding: h.id,
      toMember: rows[(i + 1) % rows.length].member,
    }));
  } finally {
    await db.end();
  }
}

/** A load of transfers from `pairs`, round robin from `start`. */
export async function transferLoad(
  target: Target,
  path: string,
  cookie: string,
  pairs: { shareholding: string; toMember: string }[],
  seconds: number,
  connections: number,
  cpuMs: (pid: number) => number,
  start: { next: number },
): Promise<TransferRun> {
  const cpuBefore = cpuMs(target.pid);
  const result = await autocannon({
    url: `${target.url}${path}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
        setupRequest: (req) => {
          const pair = pairs[start.next++ % pairs.length];
          return {
            ...req,
            body: JSON.stringify({ ...pair, quantity: '1', date: TRANSFER_DATE }),
          };
        },
      },
    ],
  });
  const cpu = cpuMs(target.pid) - cpuBefore;
  if (result.non2xx) throw new Error(`transfers: ${result.non2xx} answers were not 2xx`);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    cpuMsPerRequest: cpu / Math.max(1, result.requests.total),
  };
}

/** SQL round trips and statements of one transfer through the service, over 100 sequential ones. */
export async function countTransfer(
  counter: PgCounter,
  counted: Target,
  path: string,
  cookie: string,
  pairs: { shareholding: string; toMember: string }[],
  start: { next: number },
): Promise<{ roundTrips: number; statements: number }> {
  const n = 100;
  const send = async () => {
    const pair = pairs[start.next++ % pairs.length];
    const res = await fetch(`${counted.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ ...pair, quantity: '1', date: TRANSFER_DATE }),
    });
    if (res.status !== 201) throw new Error(`transfer: ${res.status} ${await res.text()}`);
  };
  await send();
  counter.reset();
  const started = Date.now();
  for (let i = 0; i < n; i++) await send();
  const busy = { roundTrips: counter.roundTrips, statements: counter.statements };
  const ms = Date.now() - started;
  counter.reset();
  await new Promise((r) => setTimeout(r, ms));
  return {
    roundTrips: Math.max(0, busy.roundTrips - counter.roundTrips) / n,
    statements: Math.max(0, busy.statements - counter.statements) / n,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function reportTransfers(t: TransferTimings) {
  const service = {
    rps: median(t.service.map((r) => r.rps)),
    p99: median(t.service.map((r) => r.p99)),
  };
  const bare = { rps: median(t.bare.map((r) => r.rps)), p99: median(t.bare.map((r) => r.p99)) };
  const cpu = (runs: TransferRun[]) => median(runs.map((r) => r.cpuMsPerRequest)).toFixed(2);
  console.log(`
transfers (POST .../shareholding/transfer, ${t.connections} connections):
  SQL per transfer: ${t.roundTrips.toFixed(1)} round trips (target ≤ 8), ${t.statements.toFixed(1)} statements
  service:        ${service.rps.toFixed(0)} req/s, p99 ${service.p99} ms, CPU ${cpu(t.service)} ms/req
  bare http + pg: ${bare.rps.toFixed(0)} req/s, p99 ${bare.p99} ms, CPU ${cpu(t.bare)} ms/req
  service / bare: ${(service.rps / bare.rps).toFixed(2)} (target ≥ 0.5)`);
}
