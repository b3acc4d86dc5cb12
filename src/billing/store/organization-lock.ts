import type { EntityManager } from 'typeorm';
import { lockUntilCommit } from '../../database';

/**
 * Serializes the billing writes of one organization (a signup and its webhooks, two signups at
 * once) until the transaction ends.
 */
export function lockOrganizationBilling(
  manager: EntityManager,
  organizationId: string,
): Promise<void> {
  return lockUntilCommit(manager, `billing:${organizationId}`);
}

/**
 * Serializes the billing writes of one entity (two first uses making it the provider's customer,
 * two first payment profiles each taking the default).
 */
export function lockEntityBilling(manager: EntityManager, entityId: string): Promise<void> {
  return lockUntilCommit(manager, `billing-customer:${entityId}`);
}
