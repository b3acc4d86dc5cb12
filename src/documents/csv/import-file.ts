import { Readable } from 'node:stream';
import { isEmail } from 'class-validator';
import { CsvError, parse } from 'csv-parse';
import { isValidDate } from '../../../libs/cap-math';
import type { CapTableImportRow, ImportRowError } from '../../cap-table';
import { normalizeEmail } from '../../common';
import { CAP_TABLE_COLUMNS, CapTableColumn, IGNORED_ON_IMPORT, restored } from './csv-columns';

export interface ImportFile {
  /** The rows whose cells are all well-formed (rows with an error are left out). */
  rows: CapTableImportRow[];
  /** Every problem of form, by row (0 is the header). */
  errors: ImportRowError[];
}

/** The file has more than the rows allowed: reading stopped there. */
export interface TooManyRows {
  tooManyRows: number;
}

/** At most 28 digits before the point and 10 after (the columns are numeric(38, 10)). */
const DECIMAL = /^\d{1,28}(\.\d{1,10})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads an import file with csv-parse's streaming parser and checks the form of every cell of
 * every row, collecting every error (a row whose quoting is broken is reported and parsing goes
 * on after it). The header names the columns, in any order, case aside; `status` and
 * `ownershipPercent` may be left out (their values are ignored), unknown columns are refused.
 * Cells are trimmed, and a cell the export neutralised (`'=...`) reads as what it stood for.
 * 100,000 rows take about a second: no per-record `info` (rows are counted here), each distinct
 * e-mail address checked once, decimals made canonical as text. Past `maxRows` rows (broken ones
 * included, the header aside) reading stops: a file of millions of short lines is refused for its
 * length, not read to the end into millions of row errors.
 */
export async function readImportFile(
  content: Buffer,
  maxRows: number,
): Promise<ImportFile | TooManyRows> {
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
  });
  // A skipped record comes after `records` good ones (the header included).
  const skipped: { after: number; message: string }[] = [];
  let tooMany = false;
  parser.on('skip', (err: CsvError) => {
    skipped.push({ after: err.records as number, message: err.message });
    // Broken records are not handed on: a file of nothing else is counted here.
    if (!tooMany && skipped.length + (err.records as number) - 1 > maxRows) {
      tooMany = true;
      parser.destroy();
    }
  });
  Readable.from(slices(content)).pipe(parser);

  const errors: ImportRowError[] = [];
  const rows: CapTableImportRow[] = [];
  const emails = new Map<string, string | null>();
  let header: Header | undefined;
  let records = 0;
  let skippedBefore = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      records++;
      if (skipped[0]?.after === 0) break;
      // The header is one record; every skipped (broken) record is a row too.
      if (records - 1 + skipped.length > maxRows) return { tooManyRows: maxRows };
      if (!header) {
        const read = readHeader(record);
        if ('errors' in read) return { rows: [], errors: read.errors };
        header = read.header;
        continue;
      }
      while (skippedBefore < skipped.length && skipped[skippedBefore].after < records)
        skippedBefore++;
      const checked = readRow(records - 1 + skippedBefore, header, record, emails, errors);
      if (checked) rows.push(checked);
    }
  } catch (err) {
    // Destroyed for the count of broken records (the iteration ends early).
    if (!tooMany) throw err;
  }
  if (tooMany) return { tooManyRows: maxRows };
  if (skipped[0]?.after === 0) {
    return {
      rows: [],
      errors: [{ row: 0, column: null, reason: `malformed CSV: ${skipped[0].message}` }],
    };
  }
  if (!header) return { rows: [], errors: [{ row: 0, column: null, reason: 'the file is empty' }] };
  skipped.forEach((s, k) =>
    errors.push({ row: s.after + k, column: null, reason: `malformed CSV: ${s.message}` }),
  );
  if (!rows.length && !errors.length) {
    errors.push({ row: 1, column: null, reason: 'the file has no rows after the header' });
  }
  errors.sort((a, b) => a.row - b.row);
  return { rows, errors };
}

/**
 * Bytes handed to the parser at a time. csv-parse reads a chunk in one synchronous call, and a
 * row with too few or too many cells costs it an error object (~0.1–0.3 ms): a 10 MB chunk of `x`
 * lines held the event loop for minutes. 1 KiB is at most ~500 such rows a call, and lets the
 * reading stop at CSV_IMPORT_MAX_ROWS instead of after the last byte (a slice waits for the rows
 * read before it: backpressure).
 */
const SLICE = 1024;
/** A stream in memory never waits for I/O: the slices give the event loop a turn this often. */
const TURN_MS = 20;

/** The content in slices, with a turn of the event loop every TURN_MS. */
async function* slices(content: Buffer) {
  // Elapsed time, on the monotonic clock: a share of the event loop, not a time of day.
  let since = performance.now();
  for (let at = 0; at < content.length; at += SLICE) {
    if (performance.now() - since >= TURN_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
    }
    yield content.subarray(at, at + SLICE);
  }
}

/** The columns in file order, and where each is (-1: left out). */
interface Header {
  columns: CapTableColumn[];
  at: Record<CapTableColumn, number>;
}

function readHeader(cells: string[]): { header: Header } | { errors: ImportRowError[] } {
  const errors: ImportRowError[] = [];
  const header: CapTableColumn[] = [];
  for (const cell of cells) {
    const name = CAP_TABLE_COLUMNS.find((c) => c.toLowerCase() === cell.trim().toLowerCase());
    if (!name)
      errors.push({ row: 0, column: cell.trim(), reason: 'not a column of the cap table CSV' });
    else if (header.includes(name)) errors.push({ row: 0, column: name, reason: 'appears twice' });
    else header.push(name);
  }
  for (const c of CAP_TABLE_COLUMNS) {
    if (
      !header.includes(c) &&
      !IGNORED_ON_IMPORT.includes(c) &&
      !errors.some((e) => e.column === c)
    )
      errors.push({ row: 0, column: c, reason: 'missing from the header' });
  }
  if (errors.length) return { errors };
  const at = Object.fromEntries(CAP_TABLE_COLUMNS.map((c) => [c, header.indexOf(c)]));
  return { header: { columns: header, at: at as Header['at'] } };
}

/** The row, or null when a cell is not well-formed (its errors added to `errors`). */
function readRow(
  row: number,
  { columns, at }: Header,
  record: string[],
  emails: Map<string, string | null>,
  errors: ImportRowError[],
): CapTableImportRow | null {
  if (record.length < columns.length) {
    errors.push({
      row,
      column: columns[record.length],
      reason: `too few columns: ${record.length} of ${columns.length}`,
    });
    return null;
  }
  if (record.length > columns.length) {
    errors.push({
      row,
      column: null,
      reason: `too many columns: ${record.length} of ${columns.length}`,
    });
    return null;
  }
  const cell = (c: CapTableColumn) => restored(record[at[c]].trim()).trim();
  const before = errors.length;
  const refuse = (column: CapTableColumn, reason: string) => errors.push({ row, column, reason });

  const holderName = cell('holderName');
  if (!holderName) refuse('holderName', 'required');
  else if (holderName.length > 200) refuse('holderName', 'longer than 200 characters');
  const holderEmail = email(cell('holderEmail'), emails);
  if (holderEmail === undefined) refuse('holderEmail', 'not an e-mail address');
  const security = cell('security');
  if (!security) refuse('security', 'required');
  else if (security.length > 200) refuse('security', 'longer than 200 characters');
  const classType = cell('classType');
  const type = classType.toLowerCase();
  if (type !== 'common' && type !== 'preferred')
    refuse('classType', `must be common or preferred${classType ? `, not "${classType}"` : ''}`);
  const quantity = canonical(cell('quantity'));
  if (!quantity || quantity === '0')
    refuse(
      'quantity',
      'must be a number more than 0 (at most 28 digits before the point and 10 after)',
    );
  const price = cell('pricePerShare');
  const pricePerShare = price ? canonical(price) : null;
  if (pricePerShare === undefined)
    refuse('pricePerShare', 'must be a number (at most 28 digits before the point and 10 after)');
  const issueDate = cell('issueDate');
  if (!DATE.test(issueDate) || !isValidDate(issueDate))
    refuse('issueDate', 'must be a date YYYY-MM-DD');
  const certificateNumber = cell('certificateNumber');
  if (certificateNumber.length > 40) refuse('certificateNumber', 'longer than 40 characters');
  if (errors.length > before) return null;

  return {
    row,
    holderName,
    holderEmail: holderEmail!,
    security,
    classType: type as CapTableImportRow['classType'],
    quantity: quantity!,
    pricePerShare: pricePerShare!,
    issueDate,
    certificateNumber: certificateNumber || null,
  };
}

/** The address lower-cased (null when the cell is empty), undefined when it is not one. */
function email(cell: string, seen: Map<string, string | null>): string | null | undefined {
  if (!cell) return null;
  if (!seen.has(cell)) {
    const normalized = normalizeEmail(cell);
    seen.set(cell, normalized.length <= 320 && isEmail(normalized) ? normalized : null);
  }
  return seen.get(cell) ?? undefined;
}

/** A decimal's canonical text (`007.50` → `7.5`, as toDecimalString writes it); undefined if not one. */
function canonical(text: string): string | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const [whole, fraction = ''] = text.split('.');
  const digits = whole.replace(/^0+(?=\d)/, '');
  const decimals = fraction.replace(/0+$/, '');
  return decimals ? `${digits}.${decimals}` : digits;
}
