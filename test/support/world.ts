import { TestApp } from './app';
import { createHolder, createSecurity } from './cap-table';
import { createOrg } from './orgs';
import { loggedInAgent } from './users';

/**
 * The worlds e2e tests start from, built through the routes (service tests build theirs with
 * service-world.ts): an owner with an organization, and a cap table on it.
 */

/** A new logged-in user and an organization they created (its Owner). */
export async function ownerWithOrg(t: TestApp, name?: string) {
  const owner = await loggedInAgent(t);
  const org = await createOrg(owner.agent, name);
  return { owner, org };
}

export interface CapTableOptions {
  /** The organization's name (createOrg's default). */
  name?: string;
  /** The organization's type, when not a corporation. */
  type?: 'llc' | 'corporation';
  /** The class's authorized shares: 1,000,000 by default. */
  authorizedShares?: string;
}

/** An owner's organization with one share class (common, `CS-`). */
export async function orgWithClass(t: TestApp, options: CapTableOptions = {}) {
  const { owner, org } = await ownerWithOrg(t, options.name);
  if (options.type) {
    await owner.agent.patch(`/v1/organization/${org.id}`).send({ type: options.type }).expect(200);
  }
  const security = await createSecurity(owner.agent, org.id, {
    authorizedShares: options.authorizedShares ?? '1000000',
  });
  return { owner, org, security };
}

/** An owner's organization with one share class and two holders without accounts, Alice and Bob. */
export async function capTable(t: TestApp, options: CapTableOptions = {}) {
  const world = await orgWithClass(t, options);
  const alice = await createHolder(world.owner.agent, world.org.id, 'Alice');
  const bob = await createHolder(world.owner.agent, world.org.id, 'Bob');
  return { ...world, alice, bob };
}

export type CapTable = Awaited<ReturnType<typeof capTable>>;
