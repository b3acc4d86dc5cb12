import { parse } from 'csv-parse/sync';
import { isEmail } from 'class-validator';
import { DomainError, normalizeEmail } from '../../common';

/** A person to record, as a request or a CSV row gives them. */
export interface NewMember {
  name?: string;
  email?: string;
  role?: string;
  title?: string;
}

export interface RowError {
  row: number;
  column: string;
  reason: string;
}

const COLUMNS = ['name', 'email', 'role', 'title'];
export const MAX_ROWS = 5000;

/**
 * Parses a member CSV (header row: name, email, role, title; name or email required per row).
 * Row numbers count the header as row 1, as a spreadsheet shows them. Throws 400 with every row
 * error at once.
 */
export function parseMemberCsv(content: Buffer): NewMember[] {
  let records: string[][];
  try {
    records = parse(content, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
    });
  } catch (err) {
    throw DomainError.badRequest(`the file is not valid CSV: ${(err as Error).message}`);
  }
  if (!records.length) throw DomainError.badRequest('the file is empty');
  const header = records[0].map((h) => h.toLowerCase());
  const unknown = header.filter((h) => !COLUMNS.includes(h));
  if (unknown.length || !header.some((h) => h === 'name' || h === 'email')) {
    throw DomainError.badRequest(
      `columns must be among ${COLUMNS.join(', ')} (name or email required); found: ${header.join(', ')}`,
    );
  }
  const rows = records.slice(1);
  if (!rows.length) throw DomainError.badRequest('the file has no data rows');
  if (rows.length > MAX_ROWS) throw DomainError.badRequest(`at most ${MAX_ROWS} rows per upload`);

  const errors: RowError[] = [];
  const seen = new Map<string, number>();
  const members = rows.map((cells, i) => {
    const row = i + 2;
    const get = (col: string) => {
      const at = header.indexOf(col);
      return at >= 0 ? cells[at]?.trim() || undefined : undefined;
    };
    const rawEmail = get('email');
    const member: NewMember = {
      name: get('name'),
      email: rawEmail && normalizeEmail(rawEmail),
      role: get('role'),
      title: get('title'),
    };
    if (!member.name && !member.email)
      errors.push({ row, column: 'name', reason: 'name or email is required' });
    if (member.name && member.name.length > 200)
      errors.push({ row, column: 'name', reason: 'longer than 200 characters' });
    if (member.email && !isEmail(member.email))
      errors.push({ row, column: 'email', reason: 'not a valid e-mail address' });
    if (member.email) {
      const first = seen.get(member.email);
      if (first) errors.push({ row, column: 'email', reason: `duplicate of row ${first}` });
      else seen.set(member.email, row);
    }
    if (member.title && member.title.length > 120)
      errors.push({ row, column: 'title', reason: 'longer than 120 characters' });
    return member;
  });
  if (errors.length) throw rowErrors(errors);
  return members;
}

export const rowErrors = (errors: RowError[]) =>
  DomainError.badRequest(
    `${new Set(errors.map((e) => e.row)).size} row(s) are invalid; nothing was imported`,
    { body: { errors } },
  );
