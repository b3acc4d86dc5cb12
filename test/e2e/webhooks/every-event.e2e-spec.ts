import type { Agent } from 'supertest';
import { PUBLIC_EVENT_TYPES, PublicEvent } from '../../../src/events';
import { TestApp } from '../../support/app';
import { FiredEvent, triggerEveryEvent } from '../../support/every-event';
import { createOrg, OrgFixture } from '../../support/orgs';
import { tempStorage } from '../../support/temp-storage';
import { loggedInAgent } from '../../support/users';
import { FakeBilling } from '../../fakes/billing';
import { billingApp, closeBillingApp } from '../billing/billing-fixtures';

/** Every type outbound webhooks deliver that a route of an existing organization records. */
const FROM_ROUTES = PUBLIC_EVENT_TYPES.filter((type) => type !== 'organization.created');

describe('every public event type from the route that records it (issue 21)', () => {
  const storage = tempStorage();
  let t: TestApp;
  let fake: FakeBilling;
  let owner: Agent;
  let org: OrgFixture;
  let fired: FiredEvent[];
  beforeAll(async () => {
    ({ t, fake } = await billingApp({ STORAGE_DIR: storage.dir }));
    owner = (await loggedInAgent(t)).agent;
    org = await createOrg(owner, 'Every Event Inc.');
    fired = await triggerEveryEvent(t, owner, org, { billing: fake });
  });
  afterAll(async () => {
    await closeBillingApp(t, fake);
    storage.remove();
  });

  it('fires each type of the catalogue but organization.created, once each', () => {
    const types = fired.map((f) => f.type);
    expect(new Set(types).size).toBe(types.length);
    expect([...types].sort()).toEqual([...FROM_ROUTES].sort());
  });

  it.each(FROM_ROUTES)('%s: the event list holds it, about the route’s resource', async (type) => {
    const step = fired.find((f) => f.type === type);
    expect(step).toBeDefined();
    const res = await owner
      .get(`/v1/organization/${org.id}/event`)
      .query({ type, limit: 100 })
      .expect(200);
    const events = res.body.data as PublicEvent[];
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.type === type && e.organization === org.id)).toBe(true);
    expect(events.map((e) => e.data.object)).toContainEqual(expect.objectContaining(step!.object));
  });
});
