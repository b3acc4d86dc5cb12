import { AsyncLocalStorage } from 'node:async_hooks';
import { join, relative, sep } from 'node:path';
import {
  DataSource,
  DeleteQueryBuilder,
  EntityManager,
  InsertQueryBuilder,
  Repository,
  SelectQueryBuilder,
  UpdateQueryBuilder,
} from 'typeorm';
import { SoftDeleteQueryBuilder } from 'typeorm/query-builder/SoftDeleteQueryBuilder';
import * as cursor from '../../src/database/cursor';
import { observeStatements } from '../../src/database/statement-observers';
import {
  loadSqlParser,
  moduleOf,
  ownedSpans,
  spanOwnerAt,
  SqlSyntaxError,
  tableOwnership,
  tablesIn,
  TableReference,
} from '../../scripts/sql-tables';

/**
 * The query log of the tests: every statement the app sends, with the module whose code sent it,
 * so that SQL naming another module's table fails the test that ran it (query-log-after-each.ts).
 *
 * The module is the one whose code called the data-access API: the innermost frame in src/
 * outside src/database (whose helpers run their callers' SQL), read from the stack when a
 * Repository, EntityManager, DataSource or query builder method is called, and carried to the
 * statement by an AsyncLocalStorage (V8's async stack traces lose the caller where TypeORM
 * returns a promise it did not await); a cursor's statements are the module's that made it
 * (`inBatches`), whoever iterates it. A context set at Nest's boundaries instead (an
 * interceptor, a consumer's wrapper) would name the module of the route or consumer and blame the
 * cap table for the SQL of the OrganizationsDirectory it calls. A statement no code of src/ asked
 * for (the tests' own SQL, TypeORM's start-up) is not checked.
 */

const ROOT = join(__dirname, '..', '..');
const SRC = join(ROOT, 'src') + sep;
const TYPEORM = join(ROOT, 'node_modules', 'typeorm') + sep;

interface Issuer {
  module: string;
  /** The frame that named the module, for the report. */
  at: string;
}

/** The module whose code called the data-access method running. */
const caller = new AsyncLocalStorage<Issuer>();

interface StackFacts {
  issuer?: Issuer;
  /** TypeORM's logger is on the stack: a statement observed through TypeORM. */
  viaTypeOrm: boolean;
  /** The function that called readStack was called by TypeORM itself. */
  calledByTypeOrm: boolean;
}

/** The innermost caller in src/ outside src/database on the stack, if any, and what else it shows. */
function readStack(): StackFacts {
  const { stackTraceLimit, prepareStackTrace } = Error;
  Error.stackTraceLimit = 60;
  // The call sites themselves: no formatting, no source maps.
  Error.prepareStackTrace = (_, calls) => calls;
  const holder: { stack?: NodeJS.CallSite[] } = {};
  Error.captureStackTrace(holder, readStack);
  const calls = holder.stack ?? [];
  Error.stackTraceLimit = stackTraceLimit;
  Error.prepareStackTrace = prepareStackTrace;
  let viaTypeOrm = false;
  const calledByTypeOrm = !!calls[1]?.getFileName()?.startsWith(TYPEORM);
  for (const call of calls) {
    const file = call.getFileName();
    if (call.getMethodName() === 'logQuery') viaTypeOrm = true;
    if (!file?.startsWith(SRC)) continue;
    const path = relative(ROOT, file).split(sep).join('/');
    const module = moduleOf(path);
    if (!module || module === 'database') continue;
    const name = [call.getTypeName(), call.getMethodName() ?? call.getFunctionName()]
      .filter(Boolean)
      .join('.');
    const issuer = { module, at: `${name || '<anonymous>'} (${path})` };
    return { issuer, viaTypeOrm, calledByTypeOrm };
  }
  return { viaTypeOrm, calledByTypeOrm };
}

/**
 * The module that made a cursor (`inBatches` runs lazily: its statements are sent when another
 * module, to which the cursor was handed, iterates it).
 */
const cursorMaker = new AsyncLocalStorage<Issuer>();
const lazyBatches = cursor.inBatches;
Object.assign(cursor, {
  inBatches(...args: Parameters<typeof lazyBatches>) {
    const { issuer } = readStack();
    const batches = lazyBatches(...args);
    if (!issuer) return batches;
    const iterator = {
      next: () => cursorMaker.run(issuer, () => batches.next()),
      return: (value?: unknown) => cursorMaker.run(issuer, () => batches.return(value as never)),
      throw: (err?: unknown) => cursorMaker.run(issuer, () => batches.throw(err)),
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  },
});

/** Runs each data-access method in the context of the module that called it. */
function boundToCaller(prototype: object, names: string[]) {
  const target = prototype as Record<string, unknown>;
  for (const name of names) {
    const original = target[name];
    if (typeof original !== 'function' || (original as { traced?: boolean }).traced) continue;
    const traced = function (this: unknown, ...args: unknown[]) {
      // TypeORM calling its own API (save inserting through a query builder) keeps the caller of
      // the outer call: its stack may reach past a caller that returned TypeORM's promise.
      const stack = readStack();
      const issuer =
        cursorMaker.getStore() ??
        (stack.calledByTypeOrm ? caller.getStore() : undefined) ??
        stack.issuer;
      return issuer
        ? caller.run(issuer, () => original.apply(this, args))
        : original.apply(this, args);
    };
    Object.assign(traced, { traced: true });
    target[name] = traced;
  }
}

/** A prototype's methods, but those in `skip`. */
const methodsOf = (prototype: object, skip: string[] = []) =>
  Object.getOwnPropertyNames(prototype).filter(
    (n) =>
      n !== 'constructor' &&
      !skip.includes(n) &&
      typeof Object.getOwnPropertyDescriptor(prototype, n)?.value === 'function',
  );
/** Methods that send no statement (they build entities or queries). */
const BUILDING = ['create', 'merge', 'hasId', 'getId', 'createQueryBuilder', 'extend', 'sql'];
boundToCaller(Repository.prototype, methodsOf(Repository.prototype, BUILDING));
boundToCaller(
  EntityManager.prototype,
  methodsOf(EntityManager.prototype, [
    ...BUILDING,
    'normalizeAndValidateWhereCriteria',
    'getRepository',
    'getTreeRepository',
    'getMongoRepository',
    'withRepository',
    'getCustomRepository',
  ]),
);
boundToCaller(DataSource.prototype, ['query', 'transaction']);
boundToCaller(SelectQueryBuilder.prototype, [
  'getRawOne',
  'getRawMany',
  'getRawAndEntities',
  'getOne',
  'getOneOrFail',
  'getMany',
  'getCount',
  'getExists',
  'getManyAndCount',
  'stream',
]);
for (const builder of [
  InsertQueryBuilder,
  UpdateQueryBuilder,
  DeleteQueryBuilder,
  SoftDeleteQueryBuilder,
]) {
  boundToCaller(builder.prototype, ['execute']);
}

interface Issued extends Issuer {
  sql: string;
}
const issued = new Map<string, Issued>();

observeStatements((sql) => {
  // Through TypeORM, the caller of its API; a statement sent past it (AggregateRepository's
  // prepared statements) is sent by the caller on the stack.
  const stack = readStack();
  const issuer = stack.viaTypeOrm ? (caller.getStore() ?? stack.issuer) : stack.issuer;
  if (!issuer) return;
  const key = `${issuer.module}\0${sql}`;
  if (!issued.has(key)) issued.set(key, { sql, ...issuer });
});

/** The statements sent since the last take, with their modules (for the query log's own test). */
export const statementsSent = (): readonly Issued[] => [...issued.values()];

let owners: Map<string, string> | undefined;
/** Each table's module, as scripts/architecture.ts computes it (once per run: global-setup.ts). */
function tableOwners(): Map<string, string> {
  if (!owners) {
    const computed = process.env.TEST_TABLE_OWNERS;
    owners = computed
      ? new Map(Object.entries(JSON.parse(computed) as Record<string, string>))
      : tableOwnership(ROOT).owners;
  }
  return owners;
}

const parsed = new Map<string, TableReference[]>();
let parser: Promise<void> | undefined;

/**
 * The statements sent since the last call that name another module's table, described; the
 * tables inside another module's `ownedSql` marks count as that module's.
 */
export async function takeForeignStatements(): Promise<string[]> {
  if (!issued.size) return [];
  const statements = [...issued.values()];
  issued.clear();
  await (parser ??= loadSqlParser());
  const found: string[] = [];
  for (const { sql, module, at } of statements) {
    let tables = parsed.get(sql);
    if (!tables) {
      try {
        tables = tablesIn(sql);
      } catch (err) {
        // PostgreSQL ran it; a statement this parser's version cannot read is not judged.
        if (!(err instanceof SqlSyntaxError)) throw err;
        tables = [];
      }
      parsed.set(sql, tables);
    }
    const spans = ownedSpans(sql);
    const foreign = tables
      .map(({ table, at: position }) => ({
        table,
        owner: tableOwners().get(table),
        writer: spanOwnerAt(spans, position) ?? module,
      }))
      .filter(({ owner, writer }) => owner && owner !== writer);
    if (!foreign.length) continue;
    const named = [...new Set(foreign.map((f) => `${f.table} (${f.owner}'s)`))].join(', ');
    found.push(
      `${module}, in ${at}, names ${named}:\n    ${sql.replace(/\s+/g, ' ').slice(0, 400)}`,
    );
  }
  return found;
}
