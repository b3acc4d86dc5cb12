import type { OpenAPIObject } from '@nestjs/swagger';
import { AccessContext, ApiDocument } from '../../common';
import { Env } from '../../config';
import { AgentTools } from './agent-tools.service';

/** A document serving the data room's list and the legends' list, both `canViewOrganization`. */
const DOC = {
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths: {
    '/v1/organization/{organization}/document': {
      get: { parameters: [{ name: 'organization', in: 'path', required: true }], responses: {} },
    },
    '/v1/organization/{organization}/legend': {
      get: { parameters: [{ name: 'organization', in: 'path', required: true }], responses: {} },
    },
  },
} as unknown as OpenAPIObject;

const access = (documentStore: string) =>
  ({
    userId: 'u',
    organizationId: 'o',
    organization: { id: 'o', type: 'corporation', currency: 'USD', documentStore },
    permissions: new Set(['canViewOrganization', 'canViewCapTable']),
  }) as unknown as AccessContext;

function tools(nodeEnv: string) {
  const document = new ApiDocument();
  document.provide(async () => DOC);
  return new AgentTools(document, Object.assign(new Env(), { NODE_ENV: nodeEnv }));
}

describe('AgentTools', () => {
  it('offers list_documents as the organization’s store serves it (no data room in production), and no tool the app does not serve', async () => {
    const allowed = async (nodeEnv: string, store = 'dataRoom') =>
      (await tools(nodeEnv).forCaller(access(store))).filter((t) => t.allowed).map((t) => t.name);
    // In the catalogue's order.
    expect(await allowed('development')).toEqual(['list_legends', 'list_documents']);
    expect(await allowed('development', 'suite')).toEqual(['list_legends', 'list_documents']);
    expect(await allowed('production')).toEqual(['list_legends']);
    expect(await allowed('production', 'suite')).toEqual(['list_legends', 'list_documents']);
  });
});
