import type { Agent } from 'supertest';
import { TestApp } from './app';
import { loggedInAgent } from './users';

export interface OrgFixture {
  id: string;
  entity: string;
  address: string;
}

/** Creates an organization through the route; the agent's user becomes its Owner. */
export async function createOrg(agent: Agent, name = 'Acme Inc.'): Promise<OrgFixture> {
  const res = await agent.post('/v1/organization').send({ name });
  if (res.status !== 201)
    throw new Error(`create organization: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A new logged-in user who is an active member of `orgId` with `role` (added by the owner). */
export async function memberAgent(t: TestApp, owner: Agent, orgId: string, role: string) {
  const login = await loggedInAgent(t);
  const res = await owner
    .post(`/v1/organization/${orgId}/member`)
    .send({ email: login.email, role });
  if (res.status !== 201) throw new Error(`add member: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...login, member: res.body as { id: string; user: string; role: string } };
}
