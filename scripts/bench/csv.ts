/**
 * The CSV part of `npm run bench` (`--only=csv`, and at the end of every run): the cap table
 * import and export of issue 12 on 100,000 shareholding rows.
 *
 * Import: a CSV of 100,000 rows (10,000 holders by default, each with an e-mail address and
 * ten rows; 80 % in Common Stock, 20 % in Series A Preferred, both classes made by the import)
 * posted to `POST /v1/organization/:organization/import` of a fresh organization, timed end to
 * end (upload, parse, checks, the one transaction, the answer). Target < 10 s. `ledger:verify`
 * of the built CLI must then find the tables equal to a replay of the log, or the bench stops.
 *
 * Export: `GET /v1/organization/:organization/captable` of those 100,000 rows, read to the end,
 * on a service started afresh (the import's garbage would otherwise hide the export's growth)
 * and warmed up by an export of a 10-row organization. Measured from outside, on the kernel's
 * count of the process: the peak resident set is reset (`/proc/<pid>/clear_refs`, 5) just before
 * the request, and the growth is the peak during the export (`VmHWM` after it) less the resident
 * set before it (`VmRSS`). No flag or endpoint in the service: it is the process as it runs in
 * production (package.json's node flags). Target < 100 MB.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { call } from './http';

export interface Service {
  url: string;
  pid: number;
}

export interface CsvImport {
  organizationId: string;
  rows: number;
  holders: number;
  bytes: number;
  ms: number;
}

export interface CsvExport {
  rows: number;
  bytes: number;
  ms: number;
  baselineMb: number;
  peakMb: number;
  growthMb: number;
}

const HEADER =
  'holderName,holderEmail,security,classType,quantity,pricePerShare,issueDate,certificateNumber';
export const IMPORT_TARGET_MS = 10_000;
export const EXPORT_TARGET_MB = 100;

/**
 * Row `i` (from 0): holder `i mod holders`; every fifth row preferred. Certificate numbers as an
 * export writes them (`CS-1`, `PA-1` ...; they give the new classes their prefixes).
 */
export function importFile(rows: number, holders: number): Buffer {
  const lines = [HEADER];
  let common = 0;
  let preferred = 0;
  for (let i = 0; i < rows; i++) {
    const h = i % holders;
    const day = new Date(Date.UTC(2015, 0, 1) + (i % 3650) * 86_400_000).toISOString().slice(0, 10);
    const cells =
      i % 5 === 4
        ? `Series A Preferred,preferred,${1 + (i % 997)},1.25,${day},PA-${++preferred}`
        : `Common Stock,common,${100 + ((i * 7919) % 10_000)},0.0001,${day},CS-${++common}`;
    lines.push(`Holder ${h},holder-${h}@example.com,${cells}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** A new organization of the owner (`cookie`), `file` imported into it; the request timed. */
export async function timeImport(
  service: Service,
  cookie: string,
  file: Buffer,
  name: string,
): Promise<{ organizationId: string; ms: number; body: unknown }> {
  const org = await call(service.url, 'POST', '/v1/organization', cookie, { name });
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'text/csv' }), 'captable.csv');
  const started = performance.now();
  const res = await fetch(`${service.url}/v1/organization/${org.id}/import`, {
    method: 'POST',
    headers: { Cookie: cookie },
    body: form,
  });
  const body = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 201) throw new Error(`import: ${res.status} ${body.slice(0, 2000)}`);
  return { organizationId: org.id, ms, body: JSON.parse(body) };
}

export async function benchImport(
  service: Service,
  cookie: string,
  rows: number,
  holders: number,
): Promise<CsvImport> {
  const file = importFile(rows, holders);
  const { organizationId, ms, body } = await timeImport(service, cookie, file, 'Bench CSV Inc.');
  const imported = (body as { imported: { shareholdings: number; holders: number } }).imported;
  if (imported.shareholdings !== rows || imported.holders !== holders) {
    throw new Error(`the import answered ${JSON.stringify(body)}`);
  }
  return { organizationId, rows, holders, bytes: file.length, ms };
}

/** Resident set and its peak, in kB, of a process (from the kernel). */
function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Reads a whole response, keeping only its size and line count. */
async function drain(service: Service, path: string, cookie: string) {
  const res = await fetch(`${service.url}${path}`, { headers: { Cookie: cookie } });
  if (!res.ok || !res.body) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  return { bytes, lines };
}

/**
 * The export of `organizationId` on a fresh `service`, after a warm-up export of a small
 * organization (made here) so that the code and its caches are loaded before the baseline.
 */
export async function benchExport(
  service: Service,
  cookie: string,
  organizationId: string,
  rows: number,
): Promise<CsvExport> {
  const small = await timeImport(service, cookie, importFile(10, 3), 'Bench CSV warm-up');
  for (let i = 0; i < 3; i++)
    await drain(service, `/v1/organization/${small.organizationId}/captable`, cookie);
  await new Promise((r) => setTimeout(r, 500));
  writeFileSync(`/proc/${service.pid}/clear_refs`, '5');
  const before = memory(service.pid);
  const started = performance.now();
  const { bytes, lines } = await drain(
    service,
    `/v1/organization/${organizationId}/captable`,
    cookie,
  );
  const ms = performance.now() - started;
  const after = memory(service.pid);
  if (lines !== rows + 1) throw new Error(`the export has ${lines} lines, not ${rows + 1}`);
  const mb = (kb: number) => kb / 1024;
  return {
    rows,
    bytes,
    ms,
    baselineMb: mb(before.rss),
    peakMb: mb(after.hwm),
    growthMb: mb(after.hwm - before.rss),
  };
}

export function reportCsv(i: CsvImport, e: CsvExport, verified: { ms: number; output: string }) {
  const n = i.rows.toLocaleString('en-US');
  console.log(
    `\ncsv import of ${n} rows: ${(i.ms / 1000).toFixed(1)} s (target < ${IMPORT_TARGET_MS / 1000} s)`,
  );
  console.log(
    `  ${i.holders.toLocaleString('en-US')} holders made members, 2 classes created; a ` +
      `${(i.bytes / 1024 / 1024).toFixed(1)} MB file; ${verified.output} (${verified.ms} ms)`,
  );
  console.log(
    `csv export of ${n} rows: RSS growth ${e.growthMb.toFixed(0)} MB (target < ${EXPORT_TARGET_MB} MB)`,
  );
  console.log(
    `  resident ${e.baselineMb.toFixed(0)} MB before, peak ${e.peakMb.toFixed(0)} MB during; ` +
      `${(e.bytes / 1024 / 1024).toFixed(1)} MB of CSV in ${(e.ms / 1000).toFixed(1)} s`,
  );
  console.log(
    `  ${i.ms < IMPORT_TARGET_MS ? 'PASS' : 'FAIL'} csv import < ${IMPORT_TARGET_MS / 1000} s: ${(i.ms / 1000).toFixed(2)} s`,
  );
  console.log(
    `  ${e.growthMb < EXPORT_TARGET_MB ? 'PASS' : 'FAIL'} csv export RSS growth < ${EXPORT_TARGET_MB} MB: ${e.growthMb.toFixed(1)} MB`,
  );
}
