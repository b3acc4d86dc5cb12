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

/**
 * Makes the logged-in `invitee` an active member of `orgId` with `role` the only way there is:
 * the owner invites the address, the invitee accepts from their invitation list.
 */
export async function joinByInvitation(
  owner: Agent,
  orgId: string,
  invitee: Agent,
  email: string,
  role: string,
) {
  const invited = await owner.post(`/v1/organization/${orgId}/member/invite`).send({ email, role });
  if (invited.status !== 201) {
    throw new Error(`invite: ${invited.status} ${JSON.stringify(invited.body)}`);
  }
  const pending = await invitee.get('/v1/user/invitations');
  const invitation = (pending.body as { id: string; organization: { id: string } }[]).find(
    (i) => i.organization.id === orgId,
  );
  if (!invitation) throw new Error(`no invitation to ${orgId} for ${email}`);
  const accepted = await invitee.post(`/v1/user/invitations/${invitation.id}/accept`).send();
  if (accepted.status !== 200) {
    throw new Error(`accept: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  }
  return accepted.body as { id: string; user: string; role: string };
}

/** A new logged-in user who is an active member of `orgId` with `role` (invited by the owner). */
export async function memberAgent(t: TestApp, owner: Agent, orgId: string, role: string) {
  const login = await loggedInAgent(t);
  const member = await joinByInvitation(owner, orgId, login.agent, login.email, role);
  return { ...login, member };
}
