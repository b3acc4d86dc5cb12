/** The resource a domain event is about: `member.added` → `member`. */
export const resourceOf = (eventType: string) => eventType.slice(0, eventType.indexOf('.'));

/**
 * SQL giving an organization's resource versions as a JSON object (`{"member": "3", ...}`), for
 * the access query to read them in the same round trip. `organizationExpression` is a column or
 * parameter of the embedding query.
 */
export const resourceVersionsSql = (organizationExpression: string) =>
  `(SELECT jsonb_object_agg(rv.resource, rv.version::text) FROM resource_version rv
    WHERE rv.organization_id = ${organizationExpression})`;

/**
 * Bumps the versions of the touched resources (`organization|resource` keys), as one statement
 * with its parameters numbered from `firstParam`, in a fixed order (so two transactions touching
 * the same resources cannot deadlock on them). Null when nothing was touched.
 */
export function bumpResourceVersions(
  touched: Iterable<string>,
): { sql: (firstParam: number) => string; params: unknown[] } | null {
  const keys = [...new Set(touched)].sort();
  if (!keys.length) return null;
  const organizations = keys.map((k) => k.slice(0, k.indexOf('|')));
  const resources = keys.map((k) => k.slice(k.indexOf('|') + 1));
  return {
    sql: (n) => `INSERT INTO resource_version (organization_id, resource, version)
     SELECT o, r, 1 FROM unnest($${n}::uuid[], $${n + 1}::varchar[]) AS t(o, r)
     ON CONFLICT (organization_id, resource)
     DO UPDATE SET version = resource_version.version + 1`,
    params: [organizations, resources],
  };
}
