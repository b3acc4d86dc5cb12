import type { Agent } from 'supertest';

/** A share class through the route (`authorizedShares` default 10,000,000). */
export async function createSecurity(
  agent: Agent,
  orgId: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: string; idPrefix: string; authorizedShares: string; issuedShares: string }> {
  const res = await agent.post(`/v1/organization/${orgId}/security`).send({
    name: 'Common Stock',
    classType: 'common',
    idPrefix: 'CS-',
    authorizedShares: '10000000',
    ...fields,
  });
  if (res.status !== 201)
    throw new Error(`create security: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A member without an account, to hold shares. */
export async function createHolder(
  agent: Agent,
  orgId: string,
  name = 'Holder',
): Promise<{ id: string; entity: string }> {
  const res = await agent.post(`/v1/organization/${orgId}/member`).send({ name });
  if (res.status !== 201)
    throw new Error(`create member: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function issue(
  agent: Agent,
  orgId: string,
  fields: { member: string; security: string; quantity: string | number } & Record<string, unknown>,
) {
  const res = await agent
    .post(`/v1/organization/${orgId}/shareholding`)
    .send({ issueDate: '2024-01-15', ...fields });
  if (res.status !== 201) throw new Error(`issue: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as {
    id: string;
    quantity: string;
    certificateNumber: string;
    status: string;
    legendIds: string[];
  };
}
