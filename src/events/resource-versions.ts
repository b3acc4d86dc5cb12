import type { EntityManager } from 'typeorm';

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
 * Bumps the versions of the touched resources, in one statement and a fixed order (so two
 * transactions touching the same resources cannot deadlock on them).
 */
export async function bumpResourceVersions(
  manager: EntityManager,
  touched: Iterable<string>,
): Promise<void> {
  const keys = [...new Set(touched)].sort();
  if (!keys.length) return;
  const organizations = keys.map((k) => k.slice(0, k.indexOf('|')));
  const resources = keys.map((k) => k.slice(k.indexOf('|') + 1));
  await manager.query(
    `INSERT INTO resource_version (organization_id, resource, version)
     SELECT o, r, 1 FROM unnest($1::uuid[], $2::varchar[]) AS t(o, r)
     ON CONFLICT (organization_id, resource)
     DO UPDATE SET version = resource_version.version + 1`,
    [organizations, resources],
  );
}
