/**
 * The OCF part of `npm run bench`: `GET /v1/organization/:organization/ocf` (issue 13) of an
 * organization of 100,000 shareholdings, read to the end. Target: peak RSS growth < 100 MB.
 *
 * The organization is built as the CSV bench builds its own (csv.ts: a CSV of 100,000 rows, 10,000
 * holders, imported; each row a stock issuance in the log), so the same import can feed both.
 * Measured as the CSV export is (csv.ts `benchExport`): on a service started afresh, warmed up by
 * three exports of a 10-row organization; the kernel's peak resident set is reset
 * (`/proc/<pid>/clear_refs`, 5) just before the request, and the growth is the peak during the
 * export (`VmHWM` after it) less the resident set before it (`VmRSS`). The zip is then checked:
 * unpacked (yauzl), its Transactions file must hold one TX_STOCK_ISSUANCE per shareholding and
 * its Stakeholders file one stakeholder per holder.
 *
 * For run.ts: after the CSV import (`benchImport`) of `rows` rows and `holders` holders, on a
 * fresh service, `benchOcfExport(service, cookie, organizationId, rows, holders)` then
 * `reportOcf(result)`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as yauzl from 'yauzl';
import { importFile, Service, timeImport } from './csv';

export const OCF_EXPORT_TARGET_MB = 100;

export interface OcfExport {
  holdings: number;
  holders: number;
  /** Size of the zip, and of its Transactions file unpacked. */
  bytes: number;
  transactionsBytes: number;
  ms: number;
  baselineMb: number;
  peakMb: number;
  growthMb: number;
}

function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function download(service: Service, organizationId: string, cookie: string): Promise<Buffer> {
  const path = `/v1/organization/${organizationId}/ocf`;
  const res = await fetch(`${service.url}${path}`, { headers: { Cookie: cookie } });
  if (!res.ok || !res.body) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  const chunks: Buffer[] = [];
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** The entries of a zip, unpacked. */
export function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err ?? new Error('not a zip'));
      const entries = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error(`cannot read ${entry.fileName}`));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

/**
 * The OCF export of `organizationId` (`holdings` shareholdings of `holders` holders, imported by
 * csv.ts) on a fresh `service`, after a warm-up export of a small organization made here.
 */
export async function benchOcfExport(
  service: Service,
  cookie: string,
  organizationId: string,
  holdings: number,
  holders: number,
): Promise<OcfExport> {
  const small = await timeImport(service, cookie, importFile(10, 3), 'Bench OCF warm-up');
  for (let i = 0; i < 3; i++) await download(service, small.organizationId, cookie);
  await new Promise((r) => setTimeout(r, 500));
  writeFileSync(`/proc/${service.pid}/clear_refs`, '5');
  const before = memory(service.pid);
  const started = performance.now();
  const zip = await download(service, organizationId, cookie);
  const ms = performance.now() - started;
  const after = memory(service.pid);

  const entries = await unzip(zip);
  const transactions = entries.get('Transactions.ocf.json');
  const stakeholders = entries.get('Stakeholders.ocf.json');
  if (!transactions || !stakeholders) throw new Error(`the zip holds ${[...entries.keys()]}`);
  const issued = (
    JSON.parse(transactions.toString('utf8')) as { items: { object_type: string }[] }
  ).items.filter((i) => i.object_type === 'TX_STOCK_ISSUANCE').length;
  const people = (JSON.parse(stakeholders.toString('utf8')) as { items: unknown[] }).items.length;
  if (issued !== holdings || people !== holders) {
    throw new Error(
      `the package has ${issued} stock issuances and ${people} stakeholders, not ${holdings} and ${holders}`,
    );
  }
  const mb = (kb: number) => kb / 1024;
  return {
    holdings,
    holders,
    bytes: zip.length,
    transactionsBytes: transactions.length,
    ms,
    baselineMb: mb(before.rss),
    peakMb: mb(after.hwm),
    growthMb: mb(after.hwm - before.rss),
  };
}

export function reportOcf(e: OcfExport) {
  const n = e.holdings.toLocaleString('en-US');
  console.log(
    `\nocf export of ${n} holdings: RSS growth ${e.growthMb.toFixed(0)} MB (target < ${OCF_EXPORT_TARGET_MB} MB)`,
  );
  console.log(
    `  resident ${e.baselineMb.toFixed(0)} MB before, peak ${e.peakMb.toFixed(0)} MB during; ` +
      `a ${(e.bytes / 1024 / 1024).toFixed(1)} MB zip (Transactions ${(e.transactionsBytes / 1024 / 1024).toFixed(1)} MB unpacked) in ${(e.ms / 1000).toFixed(1)} s`,
  );
  console.log(
    `  ${e.growthMb < OCF_EXPORT_TARGET_MB ? 'PASS' : 'FAIL'} ocf export RSS growth < ${OCF_EXPORT_TARGET_MB} MB: ${e.growthMb.toFixed(1)} MB`,
  );
}
