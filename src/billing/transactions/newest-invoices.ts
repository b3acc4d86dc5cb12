import type { Invoice } from '../provider/wire';

/** The most invoices the provider answers in one page. */
const PROVIDER_PAGE_LIMIT = 200;

/** One page (1-based) of a subscription's invoices, newest first. */
export type InvoicePageReader = (page: number, perPage: number) => Promise<Invoice[]>;

const newestFirst = (a: Invoice, b: Invoice): number =>
  b.issue_date.localeCompare(a.issue_date) || b.created_at.localeCompare(a.created_at);

interface Source {
  read: InvoicePageReader;
  rows: Invoice[];
  pages: number;
  /** Unread rows may still be among the wanted ones. */
  more: boolean;
}

/**
 * The `wanted` newest invoices across subscriptions, reading no page that cannot hold one: a
 * source stops after a short page or `wanted` rows of its own; the next page read is the one of
 * the source whose oldest row read is the newest, until `wanted` rows are newer than any unread.
 */
export async function newestInvoices(
  readers: InvoicePageReader[],
  wanted: number,
): Promise<Invoice[]> {
  const perPage = Math.min(wanted, PROVIDER_PAGE_LIMIT);
  const sources: Source[] = readers.map((read) => ({ read, rows: [], pages: 0, more: true }));
  const readNext = async (source: Source) => {
    const page = await source.read(++source.pages, perPage);
    source.rows.push(...page);
    source.more = page.length === perPage && source.rows.length < wanted;
  };
  await Promise.all(sources.map(readNext));
  for (;;) {
    const open = sources.filter((s) => s.more);
    if (open.length === 0) break;
    const next = open.reduce((a, b) => (newestFirst(a.rows.at(-1)!, b.rows.at(-1)!) <= 0 ? a : b));
    const frontier = next.rows.at(-1)!;
    const settled = sources.reduce(
      (n, s) => n + s.rows.filter((row) => newestFirst(row, frontier) < 0).length,
      0,
    );
    if (settled >= wanted) break;
    await readNext(next);
  }
  return sources
    .flatMap((s) => s.rows)
    .sort(newestFirst)
    .slice(0, wanted);
}
