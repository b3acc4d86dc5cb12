import type { EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { InTransaction } from '../../database';

/** Rows of one table to insert or update, as entity properties. */
export interface TableRows {
  entity: EntityTarget<ObjectLiteral>;
  rows: ObjectLiteral[];
}

/** Rows to insert only (the log, share blocks), and the share blocks to drop first. */
export interface ChangeSet {
  upserts: TableRows[];
  inserts: TableRows[];
  /** Shareholdings whose share blocks are replaced by the inserted ones. */
  replaceBlocksOf: { entity: EntityTarget<ObjectLiteral>; shareholdingIds: string[] };
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The table's columns the rows carry (created and updated times are the database's). */
function columnsOf(meta: EntityMetadata, rows: ObjectLiteral[]) {
  return meta.columns.filter(
    (c) =>
      !c.isCreateDate && !c.isUpdateDate && rows.some((r) => c.getEntityValue(r) !== undefined),
  );
}

/**
 * Writes what one transaction changed, and its log entry, in one statement (one round trip): each
 * table's rows travel as one JSON parameter, unpacked by `jsonb_populate_recordset`, as
 * data-modifying CTEs. PostgreSQL runs every part of the statement, parents before the foreign
 * keys of their children are checked (at its end), and the deletion of old share blocks sees
 * only the rows that existed before it.
 */
export async function writeChanges(tx: InTransaction, set: ChangeSet): Promise<Stamps> {
  const params: unknown[] = [];
  const parts: string[] = [];
  /** The upserts' created and updated times, read back by the statement itself. */
  const stamped: string[] = [];
  const param = (value: unknown, cast: string) => {
    params.push(value);
    return `$${params.length}::${cast}`;
  };
  const rowsOf = (meta: EntityMetadata, rows: ObjectLiteral[]) => {
    const columns = columnsOf(meta, rows);
    const json = rows.map((r) =>
      Object.fromEntries(columns.map((c) => [c.databaseName, c.getEntityValue(r) ?? null])),
    );
    const names = columns.map((c) => quote(c.databaseName)).join(', ');
    const source = `SELECT ${names} FROM jsonb_populate_recordset(NULL::${quote(meta.tableName)}, ${param(JSON.stringify(json), 'jsonb')})`;
    return { columns, names, source };
  };
  const meta = (entity: EntityTarget<ObjectLiteral>) => tx.manager.connection.getMetadata(entity);

  for (const { entity, rows } of set.upserts) {
    if (!rows.length) continue;
    const m = meta(entity);
    const { columns, names, source } = rowsOf(m, rows);
    const updates = columns
      .filter((c) => !c.isPrimary)
      .map((c) => `${quote(c.databaseName)} = EXCLUDED.${quote(c.databaseName)}`);
    if (m.updateDateColumn) updates.push(`${quote(m.updateDateColumn.databaseName)} = now()`);
    const created = m.createDateColumn
      ? quote(m.createDateColumn.databaseName)
      : 'NULL::timestamptz';
    const updated = m.updateDateColumn
      ? quote(m.updateDateColumn.databaseName)
      : 'NULL::timestamptz';
    parts.push(
      `INSERT INTO ${quote(m.tableName)} (${names}) ${source} ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}
       RETURNING id::text AS id, ${created} AS created, ${updated} AS updated`,
    );
    stamped.push(`SELECT id, created, updated FROM w${parts.length - 1}`);
  }
  const { entity, shareholdingIds } = set.replaceBlocksOf;
  if (shareholdingIds.length) {
    const m = meta(entity);
    const holding = m.findColumnWithPropertyName('shareholdingId')!.databaseName;
    parts.push(
      `DELETE FROM ${quote(m.tableName)} WHERE ${quote(holding)} = ANY(${param(shareholdingIds, 'uuid[]')})`,
    );
  }
  for (const { entity, rows } of set.inserts) {
    if (!rows.length) continue;
    const m = meta(entity);
    const { names, source } = rowsOf(m, rows);
    parts.push(`INSERT INTO ${quote(m.tableName)} (${names}) ${source}`);
  }
  if (!parts.length) return new Map();
  const select = stamped.length
    ? stamped.join(' UNION ALL ')
    : 'SELECT NULL::text AS id, NULL::timestamptz AS created, NULL::timestamptz AS updated';
  const sql = `WITH ${parts.map((p, i) => `w${i} AS (${p})`).join(',\n')} ${select}`;
  const rows = (await tx.manager.query(sql, params)) as (Stamp & { id: string | null })[];
  return new Map(rows.filter((r) => r.id).map((r) => [r.id!, r]));
}

/** When a written row was created and last updated, by id. */
export interface Stamp {
  created: Date | null;
  updated: Date | null;
}
export type Stamps = Map<string, Stamp>;
