import type { CapTableRow } from '../../cap-table';

/** The columns of the cap table CSV (export, import and template), in this order (issue 12). */
export const CAP_TABLE_COLUMNS = [
  'holderName',
  'holderEmail',
  'security',
  'classType',
  'quantity',
  'pricePerShare',
  'issueDate',
  'certificateNumber',
  'status',
  'ownershipPercent',
] as const satisfies readonly (keyof CapTableRow)[];

export type CapTableColumn = (typeof CAP_TABLE_COLUMNS)[number];

/** Columns an import reads no value from. */
export const IGNORED_ON_IMPORT: readonly CapTableColumn[] = ['status', 'ownershipPercent'];

/**
 * Characters a spreadsheet reads as the start of a formula (OWASP's CSV injection list): a cell
 * beginning with one is written with a `'` in front, which makes it text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as written to a CSV file: text that would start a formula is neutralised. Only text
 * can be hit: the number columns are never negative (quantities are more than 0, prices and
 * percents at least 0), so a number never loses its value to the quote.
 */
export const neutralised = (value: string | null): string =>
  value === null ? '' : FORMULA_START.test(value) ? `'${value}` : value;

/** The value a neutralised cell stood for: the import reads back what the export wrote. */
export const restored = (cell: string): string =>
  cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;

/** RFC 4180 line ends, which every spreadsheet reads. */
export const RECORD_DELIMITER = '\r\n';

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One record as CSV text with its line end (RFC 4180: a cell with a quote, a comma or a line
 * break in quotes, its quotes doubled; nothing else quoted). The export writes 100,000 rows
 * through this: csv-stringify, which wrote them before, allocates about 30 times the text it
 * writes (most of the export's garbage), this about once. A unit test holds the two to the same
 * bytes on random cells, but for a lone CR or LF in a cell, which csv-stringify 6 leaves
 * unquoted with CRLF records (a reader then ends the record there) and this quotes. The import
 * reads with csv-parse.
 */
export function csvRecord(cells: readonly string[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (i) line += ',';
    line += NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
  }
  return line + RECORD_DELIMITER;
}

/** A row as CSV cells, in column order. */
export const csvCells = (row: CapTableRow): string[] =>
  CAP_TABLE_COLUMNS.map((c) => neutralised(row[c]));
