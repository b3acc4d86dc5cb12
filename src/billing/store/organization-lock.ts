import type { EntityManager } from 'typeorm';

/**
 * Serializes the billing writes of one organization (a signup and its webhooks, two signups at
 * once) until the transaction ends. An advisory lock: it takes no row of another module's.
 */
export async function lockOrganizationBilling(
  manager: EntityManager,
  organizationId: string,
): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
    `billing:${organizationId}`,
  ]);
}
