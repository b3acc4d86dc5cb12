/**
 * The tables SQL names, read by PostgreSQL's own parser (libpg-query), and the module that owns
 * each table. Shared by scripts/architecture.ts (the SQL written in src/) and the tests' query log
 * (test/support/query-log.ts: the SQL the app runs).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadModule, parseSync } from 'libpg-query';

/** The parser is WebAssembly: load it once before `tablesIn`. */
export const loadSqlParser = (): Promise<void> => loadModule();

export interface TableReference {
  table: string;
  /** Where the name starts in the SQL text (a string index). */
  at: number;
}

export class SqlSyntaxError extends Error {
  constructor(
    message: string,
    /** The string index the parser stopped at. */
    readonly at: number,
  ) {
    super(message);
  }
}

/**
 * Every table a statement (or several, `;`-separated) names: FROM, JOIN and comma joins,
 * subqueries, the targets of INSERT, UPDATE, DELETE, TRUNCATE, LOCK…; not the names of its CTEs,
 * nor tables of another schema than `public` (the catalogs). Throws SqlSyntaxError.
 */
export function tablesIn(sql: string): TableReference[] {
  let tree: unknown;
  try {
    tree = parseSync(sql);
  } catch (err) {
    const details = (err as { sqlDetails?: { cursorPosition?: number } }).sqlDetails;
    throw new SqlSyntaxError((err as Error).message, charIndex(sql, details?.cursorPosition ?? 0));
  }
  const ctes = new Set<string>();
  const found: { relname: string; schemaname?: string; location: number }[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    // A RangeVar: under its own key in FROM lists, bare as the target of INSERT, UPDATE, DELETE.
    if (typeof (node as { relname?: unknown }).relname === 'string') {
      found.push(node as (typeof found)[number]);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'CommonTableExpr') ctes.add((value as { ctename: string }).ctename);
      walk(value);
    }
  };
  walk(tree);
  return found
    .filter((r) => (r.schemaname ?? 'public') === 'public')
    .filter((r) => r.schemaname || !ctes.has(r.relname))
    .map((r) => ({ table: r.relname, at: charIndex(sql, r.location) }))
    .sort((a, b) => a.at - b.at);
}

/** The parser counts UTF-8 bytes; JavaScript strings count UTF-16 units. */
function charIndex(sql: string, byteOffset: number): number {
  if (Buffer.byteLength(sql, 'utf8') === sql.length) return byteOffset;
  return Buffer.from(sql, 'utf8').subarray(0, byteOffset).toString('utf8').length;
}

/**
 * The spans of `sql` that another module's exported SQL function wrote (see `ownedSql` in
 * src/database): the tables named inside are that module's business, not the embedder's.
 */
export function ownedSpans(sql: string): { owner: string; from: number; to: number }[] {
  const spans: { owner: string; from: number; to: number }[] = [];
  const open: { owner: string; from: number }[] = [];
  for (const mark of sql.matchAll(/\/\*owned-by ([a-z0-9-]+) \{\*\/|\/\*\}\*\//g)) {
    if (mark[1]) open.push({ owner: mark[1], from: mark.index });
    else {
      const started = open.pop();
      if (started) spans.push({ ...started, to: mark.index + mark[0].length });
    }
  }
  return spans;
}

/** The module the table named at `at` is written by: the owner of a span around it, else none. */
export function spanOwnerAt(spans: ReturnType<typeof ownedSpans>, at: number): string | undefined {
  // The innermost span: the last opened of those that contain the position.
  return spans.filter((s) => s.from <= at && at < s.to).sort((a, b) => b.from - a.from)[0]?.owner;
}

/**
 * Tables no entity declares, with their owner: TypeORM's own, and any a migration creates alone.
 * A migration's table that is neither an entity's nor listed here fails the check.
 */
const TABLES_WITHOUT_ENTITY: Record<string, string> = {
  migrations: 'database',
  // Kept by triggers (migration EquityTallies), read by the cap table's StakeholderCounts.
  member_equity_tally: 'cap-table',
  organization_equity_tally: 'cap-table',
  // A transaction's note that it wrote a tracked table (migration TableVersions); only triggers.
  resource_write: 'events',
  // The fingerprint of the encryption key in use, checked at start-up (migration
  // EncryptionKeyFingerprint).
  encryption_key_fingerprint: 'database',
};
export const MIGRATIONS = 'src/database/migrations/';

/** A module is a folder directly under src/. */
export const moduleOf = (file: string) => /^src\/([^/]+)\//.exec(file)?.[1];

/** The .ts files of src/ that run (specs left out), as paths relative to `root`. */
export function sources(root: string): string[] {
  return (readdirSync(join(root, 'src'), { recursive: true }) as string[])
    .map((f) => `src/${f.split('\\').join('/')}`)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
    .sort();
}

export interface Ownership {
  /** Each table's module: the one whose entity declares it, else TABLES_WITHOUT_ENTITY. */
  owners: Map<string, string>;
  /** Each entity class's table, by class name. */
  entityTables: Map<string, string>;
}

/** Who owns which table, from the entities of src/ (files relative to `root`). */
export function tableOwnership(root: string, files = sources(root)): Ownership {
  const owners = new Map(Object.entries(TABLES_WITHOUT_ENTITY));
  const entityTables = new Map<string, string>();
  for (const file of files) {
    const module = moduleOf(file);
    if (!module || file.startsWith(MIGRATIONS)) continue;
    const text = readFileSync(join(root, file), 'utf8');
    for (const [, table, entity] of text.matchAll(
      /@Entity\(\s*['"]([a-z0-9_]+)['"][^)]*\)[\s\S]*?\bclass\s+(\w+)/g,
    )) {
      const owner = owners.get(table);
      if (owner && owner !== module)
        throw new Error(`${table} is an entity of ${owner} and ${module}`);
      owners.set(table, module);
      if (entityTables.has(entity) && entityTables.get(entity) !== table)
        throw new Error(`two entity classes are named ${entity}: keep entity names unique`);
      entityTables.set(entity, table);
    }
  }
  const unowned = files
    .filter((f) => f.startsWith(MIGRATIONS))
    .flatMap((f) => [
      ...readFileSync(join(root, f), 'utf8').matchAll(/CREATE TABLE "?([a-z0-9_]+)/g),
    ])
    .map(([, table]) => table)
    .filter((table) => !owners.has(table));
  if (unowned.length) {
    throw new Error(`tables without an owner (add them to TABLES_WITHOUT_ENTITY): ${unowned}`);
  }
  return { owners, entityTables };
}
