import type { EntityManager } from 'typeorm';
import { lockUntilCommit } from '../../database';

/**
 * Serializes the billing writes of one organization (a signup's claim and its storing, its
 * webhooks, a cancellation's storing) until the transaction ends. Never held across a call to
 * the provider: those run outside any transaction.
 */
export function lockOrganizationBilling(
  manager: EntityManager,
  organizationId: string,
): Promise<void> {
  return lockUntilCommit(manager, `billing:${organizationId}`);
}

/** Serializes the billing writes of one entity (two first payment profiles each taking the default). */
export function lockEntityBilling(manager: EntityManager, entityId: string): Promise<void> {
  return lockUntilCommit(manager, `billing-customer:${entityId}`);
}
