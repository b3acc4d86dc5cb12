import type { RecordResolver } from '../../common';
import { resourceVersionsSql } from '../../events';

/** One row of the access query: everything the guard needs to decide, read at once. */
export interface AccessRow {
  organization_id: string | null;
  owner_user_id: string | null;
  organization_exists: boolean;
  organization_type: string | null;
  organization_currency: string | null;
  organization_document_store: string | null;
  member_id: string | null;
  role_id: string | null;
  role_permissions: string[] | null;
  /** The organization's resource versions (cached lists are keyed by them). */
  versions: Record<string, string> | null;
  [bodyRecord: `body_${number}`]: string | null | undefined;
}

export interface AccessQuery {
  sql: string;
  params: unknown[];
}

/**
 * Builds the single query that decides access: the addressed record's organization and owner (by
 * its resolver, or the path organization itself), whether that organization exists and is not
 * deleted, the caller's active membership and role, and the organizations of any records named
 * in the body, the organization's type, currency and document store, and (for members) its resource versions. Resolver SQL names its inputs `{id}`, `{organization}` and `{user}` (the caller); they
 * become numbered parameters here.
 */
export function buildAccessQuery(
  target: { resolver?: RecordResolver; id: string; pathOrganization: string | null },
  userId: string,
  bodyRecords: { resolver: RecordResolver; id: string }[] = [],
): AccessQuery {
  const params: unknown[] = [];
  const param = (value: unknown, cast = 'uuid') => {
    params.push(value);
    return `$${params.length}::${cast}`;
  };
  // Only placeholders the resolver uses become parameters (PostgreSQL cannot type unused ones).
  const bind = (sql: string, id: string, organization: string | null) => {
    let bound = sql;
    if (bound.includes('{id}')) bound = bound.replace(/\{id\}/g, param(id));
    if (bound.includes('{organization}')) {
      bound = bound.replace(/\{organization\}/g, param(organization));
    }
    // The caller, for records with more than one owner (a plan document is each grantee's).
    if (bound.includes('{user}')) bound = bound.replace(/\{user\}/g, param(userId));
    return bound;
  };

  const targetSql = target.resolver
    ? bind(target.resolver.sql, target.id, target.pathOrganization)
    : `SELECT ${param(target.id)} AS organization_id, NULL::uuid AS owner_user_id`;
  const user = param(userId);
  const bodyColumns = bodyRecords.map(
    (b, i) =>
      `(SELECT r.organization_id FROM (${bind(b.resolver.sql, b.id, target.pathOrganization)}) r LIMIT 1) AS body_${i}`,
  );
  const sql = `
    WITH target AS (${targetSql} LIMIT 1)
    SELECT t.organization_id, t.owner_user_id,
           (o.id IS NOT NULL) AS organization_exists,
           o.type AS organization_type, o.currency AS organization_currency,
           o.document_store AS organization_document_store,
           m.id AS member_id, m.role_id, r.permissions AS role_permissions,
           CASE WHEN m.id IS NOT NULL THEN ${resourceVersionsSql('o.id')} END AS versions
           ${bodyColumns.map((c) => `, ${c}`).join('')}
    FROM target t
    LEFT JOIN organization o ON o.id = t.organization_id AND o.deleted_at IS NULL
    LEFT JOIN member m ON m.organization_id = o.id AND m.user_id = ${user} AND m.status = 'active'
    LEFT JOIN role r ON r.id = m.role_id`;
  return { sql, params };
}
