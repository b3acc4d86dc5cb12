/**
 * The tables each file of src/ names in its SQL, found by PostgreSQL's parser: the SQL of string
 * and template literals (any case, several statements, `${…}` replaced by what keeps it
 * parseable), and the tables the data-access helpers are given by name or by entity class.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import {
  MIGRATIONS,
  moduleOf,
  Ownership,
  SqlSyntaxError,
  sources,
  tableOwnership,
  tablesIn,
} from './sql-tables';

export interface NamedTable {
  table: string;
  line: number;
  /** How it was found: in SQL, or given to a helper. */
  how: string;
}

/** A literal that starts like a statement: parsed as it is. */
const STATEMENT =
  /^\s*(?:\/\*[\s\S]*?\*\/\s*)*\(*\s*(select|insert|update|delete|with|truncate|lock|values|declare)\b/i;
/** A literal that may be part of one (a condition, a FROM list, a subquery). */
const FRAGMENT = /\b(select|from|join|into|update)\b/i;
/** How a fragment is made a statement to parse: the first that parses is taken. */
const FRAGMENT_WRAPPERS = ['SELECT 1 FROM ', 'SELECT 1 WHERE ', 'SELECT '];

/**
 * What stands for a `${…}` the file does not define as a constant string, tried in turn where the
 * parser stops: a column or table name, a parenthesised one (`IN ${list}`), a subquery
 * (`ARRAY${subquery}`), a string, a number, nothing (an optional clause), an assignment
 * (`SET ${updates}`).
 */
const PLACEHOLDERS = [
  (n: number) => `p__${n}`,
  (n: number) => `(p__${n})`,
  () => '(SELECT 1)',
  () => `''`,
  () => '1',
  () => '',
  (n: number) => `p__${n} = 1`,
];

/** Helpers called with a table's name or entity class, and which argument holds it. */
const TABLE_ARGUMENT: Record<string, number> = {
  deleteInBatches: 1,
  InjectRepository: 0,
  getRepository: 0,
  forFeature: 0,
  from: 0,
  into: 0,
  update: 0,
  delete: 0,
  innerJoin: 0,
  leftJoin: 0,
  innerJoinAndSelect: 0,
  leftJoinAndSelect: 0,
  innerJoinAndMapOne: 0,
  leftJoinAndMapOne: 0,
  innerJoinAndMapMany: 0,
  leftJoinAndMapMany: 0,
  createQueryBuilder: 0,
  find: 0,
  findBy: 0,
  findOne: 0,
  findOneBy: 0,
  findOneOrFail: 0,
  findOneByOrFail: 0,
  findAndCount: 0,
  count: 0,
  countBy: 0,
  exists: 0,
  existsBy: 0,
  insert: 0,
  upsert: 0,
  save: 0,
  remove: 0,
  softDelete: 0,
  increment: 0,
  decrement: 0,
  sum: 0,
  average: 0,
  minimum: 0,
  maximum: 0,
};
/** Of those, the ones whose string argument is a table's name (not a key, a URL or a path). */
const TABLE_NAME_ARGUMENT = new Set([
  'deleteInBatches',
  'from',
  'into',
  'update',
  'innerJoin',
  'leftJoin',
  'innerJoinAndSelect',
  'leftJoinAndSelect',
  'innerJoinAndMapOne',
  'leftJoinAndMapOne',
  'innerJoinAndMapMany',
  'leftJoinAndMapMany',
]);

/** TypeORM's `:name`, `:...names` and the record resolvers' `{user}` are parameters to PostgreSQL. */
const parametersOf = (sql: string) =>
  sql.replace(/(?<![:\w]):(?:\.\.\.)?[A-Za-z_]\w*/g, '$1').replace(/\{[A-Za-z]+\}/g, '$1');

export interface SqlScan {
  named: Map<string, NamedTable[]>;
  /** Literals that start like SQL but do not parse (read with the old keyword rule instead). */
  unparsed: string[];
  /** `ownedSql(owner, …)` calls whose owner is not the calling module. */
  falseOwners: string[];
}

/** The tables every file of src/ names. */
export function scanSql(root: string, ownership: Ownership): SqlScan {
  const scan: SqlScan = { named: new Map(), unparsed: [], falseOwners: [] };
  for (const file of sources(root)) {
    if (!moduleOf(file) || file.startsWith(MIGRATIONS)) continue;
    scan.named.set(
      file,
      tablesNamedIn(file, readFileSync(join(root, file), 'utf8'), ownership, scan),
    );
  }
  return scan;
}

/** The owned tables `text` (the file `file` of src/) names; what it cannot read goes to `scan`. */
export function tablesNamedIn(
  file: string,
  text: string,
  ownership: Ownership,
  scan: Omit<SqlScan, 'named'> = { unparsed: [], falseOwners: [] },
): NamedTable[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: NamedTable[] = [];
  const lineOf = (node: ts.Node) =>
    source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const constants = constantStrings(source);

  const sqlIn = (node: ts.Node, parts: string[], interpolations: ts.Expression[]) => {
    const joined = parts.join(' ');
    const statement = STATEMENT.test(joined);
    if (!statement && !FRAGMENT.test(joined)) return;
    const refs = parseWithPlaceholders(parts, interpolations, constants, statement);
    if (refs === undefined) {
      if (!statement) return;
      scan.unparsed.push(`${file}:${lineOf(node)}`);
      for (const m of joined.matchAll(OLD_TABLE_AFTER_KEYWORD)) {
        found.push({ table: m[1], line: lineAt(node, joined, m.index), how: 'in SQL' });
      }
      return;
    }
    for (const { table, at, sql } of refs) {
      found.push({ table, line: lineAt(node, sql, at), how: 'in SQL' });
    }
  };
  const lineAt = (node: ts.Node, sql: string, at: number) =>
    lineOf(node) + (sql.slice(0, at).match(/\n/g)?.length ?? 0);

  const tableArgument = (call: ts.CallExpression, name: string, receiver?: ts.Expression) => {
    const index = TABLE_ARGUMENT[name];
    if (index === undefined) return;
    const argument = call.arguments[index];
    if (!argument) return;
    const candidates = ts.isArrayLiteralExpression(argument) ? [...argument.elements] : [argument];
    for (const candidate of candidates) {
      if (ts.isIdentifier(candidate) && ownership.entityTables.has(candidate.text)) {
        const table = ownership.entityTables.get(candidate.text)!;
        found.push({ table, line: lineOf(candidate), how: `entity ${candidate.text} to ${name}` });
      } else if (TABLE_NAME_ARGUMENT.has(name) && !isGlobalClass(receiver)) {
        const table = ts.isStringLiteralLike(candidate)
          ? candidate.text
          : ts.isIdentifier(candidate)
            ? constants.get(candidate.text)
            : undefined;
        if (table && /^[a-z_][a-z0-9_]*$/.test(table)) {
          found.push({ table, line: lineOf(candidate), how: `table name to ${name}` });
        }
      }
    }
  };

  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      sqlIn(node, [node.text], []);
    } else if (ts.isTemplateExpression(node)) {
      sqlIn(
        node,
        [node.head.text, ...node.templateSpans.map((s) => s.literal.text)],
        node.templateSpans.map((s) => s.expression),
      );
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isIdentifier(callee)) {
        tableArgument(node, callee.text);
        if (callee.text === 'ownedSql') checkOwner(node);
        if (callee.text === 'Retention') retentionTable(node);
      } else if (ts.isPropertyAccessExpression(callee)) {
        tableArgument(node, callee.name.text, callee.expression);
      }
    }
    ts.forEachChild(node, visit);
  };
  // A retention's table (`@Retention({ table })`) is named as SQL names it: only by its owner.
  const retentionTable = (call: ts.CallExpression) => {
    const [spec] = call.arguments;
    for (const p of spec && ts.isObjectLiteralExpression(spec) ? spec.properties : []) {
      if (!ts.isPropertyAssignment(p) || !ts.isStringLiteralLike(p.initializer)) continue;
      const field = p.name.getText(source);
      if (field === 'table') {
        found.push({ table: p.initializer.text, line: lineOf(p.initializer), how: 'retention' });
      } else if (field === 'owner' && p.initializer.text !== moduleOf(file)) {
        scan.falseOwners.push(`${file}:${lineOf(p)} marks a retention as another module's`);
      }
    }
  };
  const checkOwner = (call: ts.CallExpression) => {
    const [owner] = call.arguments;
    // The owner a declaration names (`retention.owner`), checked where it is declared: the
    // scheduler runs the statement on that module's behalf.
    if (owner && ts.isPropertyAccessExpression(owner) && owner.name.text === 'owner') return;
    if (!owner || !ts.isStringLiteralLike(owner) || owner.text !== moduleOf(file)) {
      scan.falseOwners.push(`${file}:${lineOf(call)} marks SQL as another module's`);
    }
  };
  visit(source);
  // A name no module owns (a placeholder, a word of prose) cannot be another module's table.
  return found.filter((f) => ownership.owners.has(f.table));
}

/** `Array.from`, `Buffer.from`, `Object.…`: calls of a global class are not queries. */
const isGlobalClass = (receiver?: ts.Expression) =>
  !!receiver && ts.isIdentifier(receiver) && /^[A-Z]/.test(receiver.text);

/** The keyword rule this check had before the parser, for a statement no placeholder makes parse. */
const OLD_TABLE_AFTER_KEYWORD =
  /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+(?:ONLY\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)\b/gi;

/** `const NAME = '…'` (or a template without `${…}`) of a file, by name: what `${NAME}` stands for. */
function constantStrings(source: ts.SourceFile): Map<string, string> {
  const constants = new Map<string, string>();
  const visit = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      ts.isStringLiteralLike(node.initializer) &&
      ts.isVariableDeclarationList(node.parent) &&
      node.parent.flags & ts.NodeFlags.Const
    ) {
      // Two constants of one name in a file: neither is taken.
      const seen = constants.has(node.name.text);
      constants.set(node.name.text, seen ? '' : node.initializer.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const [name, value] of constants) if (!value) constants.delete(name);
  return constants;
}

/**
 * The tables of the SQL made of `parts` and `interpolations` (a constant string's value in place
 * of its name, else a placeholder), with where each is named in the text that parsed; undefined
 * when no placeholder and wrapper make it parse.
 */
function parseWithPlaceholders(
  parts: string[],
  interpolations: ts.Expression[],
  constants: Map<string, string>,
  statement: boolean,
): { table: string; at: number; sql: string }[] | undefined {
  const fixed = interpolations.map((e) =>
    // Newlines kept out, so that lines still count in the literal's own text.
    ts.isIdentifier(e) ? constants.get(e.text)?.replace(/\n/g, ' ') : undefined,
  );
  const choice = interpolations.map(() => 0);
  const wrappers = statement ? ['', ...FRAGMENT_WRAPPERS] : FRAGMENT_WRAPPERS;
  for (const wrapper of wrappers) {
    choice.fill(0);
    for (let attempt = 0; attempt < 8 * (interpolations.length + 1); attempt++) {
      let sql = wrapper + parametersOf(parts[0]);
      const starts: number[] = [];
      interpolations.forEach((_, i) => {
        starts.push(sql.length);
        sql +=
          (fixed[i] !== undefined ? parametersOf(fixed[i]) : PLACEHOLDERS[choice[i]](i)) +
          parametersOf(parts[i + 1]);
      });
      try {
        return tablesIn(sql)
          .filter((r) => r.at >= wrapper.length)
          .map((r) => ({
            table: r.table,
            at: r.at - wrapper.length,
            sql: sql.slice(wrapper.length),
          }));
      } catch (err) {
        if (!(err instanceof SqlSyntaxError)) throw err;
        // The placeholder the parser stopped at or after; the next way of writing it.
        const stuck = starts
          .map((s, i) => ({ s, i }))
          .filter(({ s, i }) => s <= err.at && fixed[i] === undefined)
          .pop();
        if (!stuck || choice[stuck.i] === PLACEHOLDERS.length - 1) break;
        choice[stuck.i]++;
      }
    }
  }
  return undefined;
}

/** `file:line` of every table named by a module that does not own it. */
export function foreignTables(root: string): { leaks: string[]; scan: SqlScan } {
  const ownership = tableOwnership(root);
  const scan = scanSql(root, ownership);
  const leaks = new Set<string>();
  for (const [file, named] of scan.named) {
    const module = moduleOf(file)!;
    for (const { table, line, how } of named) {
      const owner = ownership.owners.get(table);
      if (owner && owner !== module)
        leaks.add(`${file}:${line} names ${table} (${how}), a table of ${owner}`);
    }
  }
  return { leaks: [...leaks], scan };
}
