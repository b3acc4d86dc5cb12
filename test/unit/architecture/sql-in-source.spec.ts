import { tablesNamedIn } from '../../../scripts/sql-in-source';
import {
  loadSqlParser,
  Ownership,
  ownedSpans,
  spanOwnerAt,
  tablesIn,
} from '../../../scripts/sql-tables';

/**
 * What the architecture check reads as SQL naming a table: the cases the keyword rule it replaced
 * let through (lowercase, comma joins, helpers given a table) and those it must not count (CTEs).
 */
const ownership: Ownership = {
  owners: new Map([
    ['member', 'organizations'],
    ['organization', 'organizations'],
    ['holding', 'cap-table'],
    ['agent_conversation', 'agent'],
  ]),
  entityTables: new Map([
    ['Member', 'member'],
    ['Holding', 'holding'],
  ]),
};
const FILE = 'src/cap-table/some.service.ts';
const tables = (code: string) =>
  tablesNamedIn(FILE, code, ownership).map(({ table, line, how }) => `${table}@${line} ${how}`);

beforeAll(() => loadSqlParser());

describe('tablesIn (PostgreSQL parser)', () => {
  it('names every table of FROM, JOIN, comma joins, subqueries and write targets, not CTEs', () => {
    const sql = `with recent as (select * from holding where created > now())
      select * from recent r, member m join organization o on o.id = m.organization_id
      where exists (select 1 from agent_conversation c where c.user_id = m.user_id);
      update holding set status = 'x'; delete from member; insert into public.organization (id) values (1)`;
    expect(tablesIn(sql).map((r) => r.table)).toEqual([
      'holding',
      'member',
      'organization',
      'agent_conversation',
      'holding',
      'member',
      'organization',
    ]);
  });

  it('gives where each table is named, and leaves the catalogs out', () => {
    const sql = 'SELECT 1 FROM pg_catalog.pg_class, "member"';
    expect(tablesIn(sql)).toEqual([{ table: 'member', at: sql.indexOf('"member"') }]);
  });
});

describe('ownedSpans', () => {
  it('finds the spans an owner marked, innermost first', () => {
    const sql = `SELECT /*owned-by organizations {*/ (SELECT 1 FROM member) /*}*/ FROM holding`;
    const spans = ownedSpans(sql);
    expect(spanOwnerAt(spans, sql.indexOf('member'))).toBe('organizations');
    expect(spanOwnerAt(spans, sql.indexOf('holding'))).toBeUndefined();
  });
});

describe('tablesNamedIn (the SQL of a source file)', () => {
  it('reads lowercase SQL and comma joins in plain strings', () => {
    expect(
      tables(`const a = 'select m.id from holding h, member m where m.id = h.member_id';`),
    ).toEqual(['holding@1 in SQL', 'member@1 in SQL']);
  });

  it('reads template literals with interpolations, on the line each table is named', () => {
    const code = [
      'const sql = `',
      '  SELECT ${columns} FROM holding h',
      '  WHERE h.member_id IN ${list} AND h.x = ANY(ARRAY${ids})',
      '  ${optional}',
      '  ORDER BY ${order}`;',
      'const other = `DELETE FROM ${TABLE} WHERE id = :id`;',
      "const TABLE = 'member';",
    ].join('\n');
    expect(tables(code)).toEqual(['holding@2 in SQL', 'member@6 in SQL']);
  });

  it('reads fragments: conditions and joins given to a query builder', () => {
    const code = [
      "qb.andWhere('h.memberId IN (SELECT mo.id FROM member mo WHERE mo.user_id = :user)');",
      "qb.from('holding h JOIN member m ON m.id = h.member_id', 'x');",
    ].join('\n');
    expect(tables(code)).toEqual(['member@1 in SQL', 'holding@2 in SQL', 'member@2 in SQL']);
  });

  it('reads the tables given to helpers by name or by entity class', () => {
    const code = [
      "deleteInBatches(this.dataSource, 'agent_conversation', 'updated < $2', [before]);",
      "ds.createQueryBuilder().update('member').set({ name: 'x' }).execute();",
      '@InjectRepository(Member) private readonly members: Repository<Member>,',
      'const holdings = manager.getRepository(Holding);',
      'TypeOrmModule.forFeature([Holding, Member]);',
      "Buffer.from('member'); url.searchParams.delete('member');",
    ].join('\n');
    expect(tables(code)).toEqual([
      'agent_conversation@1 table name to deleteInBatches',
      'member@2 table name to update',
      'member@3 entity Member to InjectRepository',
      'holding@4 entity Holding to getRepository',
      'holding@5 entity Holding to forFeature',
      'member@5 entity Member to forFeature',
    ]);
  });

  it("counts an ownedSql mark of another module's name as a false owner", () => {
    const scan = { unparsed: [], falseOwners: [] as string[] };
    tablesNamedIn(FILE, "ownedSql('organizations', `(SELECT 1)`);", ownership, scan);
    tablesNamedIn(FILE, "ownedSql('cap-table', `(SELECT 1)`);", ownership, scan);
    expect(scan.falseOwners).toEqual([`${FILE}:1 marks SQL as another module's`]);
  });

  it('reads the table a retention deletes from (`@Retention({ table })`)', () => {
    expect(
      tables(`@Retention({ name: 'x', table: 'agent_conversation', olderThan: 1 })\nclass X {}`),
    ).toEqual(['agent_conversation@1 retention']);
  });

  it('leaves prose alone', () => {
    expect(tables(`const m = 'Select the member from the list, then update it';`)).toEqual([]);
  });
});
