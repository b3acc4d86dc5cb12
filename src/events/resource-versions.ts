import { ownedSql } from '../database';

/**
 * SQL giving an organization's table versions as a JSON object (`{"member": "3", ...}`), for
 * the access query to read them in the same round trip. `organizationExpression` is a column or
 * parameter of the embedding query.
 */
export const resourceVersionsSql = (organizationExpression: string) =>
  ownedSql(
    'events',
    `(SELECT jsonb_object_agg(rv.resource, rv.version::text) FROM resource_version rv
      WHERE rv.organization_id = ${organizationExpression})`,
  );
