import '../../support/agent-off';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

describe('agent off (AGENT_ENABLED=false with an LLM key)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LLM_API_KEY: 'an-llm-key', AGENT_ENABLED: 'false' } });
  });
  afterAll(() => t.close());

  it('serves none of its routes: 404 as for a path that does not exist', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const missing = await owner.agent.get('/v1/no-such-route').expect(404);
    for (const res of [
      await owner.agent.get('/v1/agent/status'),
      await owner.agent.post('/v1/agent/chat').send({ organization: org.id, message: 'Hi' }),
      await owner.agent.post('/v1/agent/confirm').send({ stepId: org.id, confirmed: true }),
      await owner.agent.get(`/v1/organization/${org.id}/agent/context`),
      await owner.agent.get(`/v1/organization/${org.id}/agent/tools`),
      await t.http
        .post('/v1/agent/onboarding/create')
        .send({ email: owner.email, initialPrompt: 'We are Acme.' }),
      await t.http.get(`/v1/agent/onboarding/${org.id}`),
      await t.http.get(`/v1/agent/onboarding/analysis-status/${org.id}`),
      await owner.agent.get('/v1/agent/onboarding/first-login'),
      await owner.agent.post('/v1/agent/onboarding/link').send({ onboardingId: org.id }),
      await owner.agent.post('/v1/agent/onboarding/setup').send({ onboardingId: org.id }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
  });
});
