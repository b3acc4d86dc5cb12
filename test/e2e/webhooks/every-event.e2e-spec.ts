import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { definitionOf, TRANSACTION_TYPES } from '../../../src/cap-table/ledger/transactions';
import type { TransactionType } from '../../../src/cap-table/ledger/transaction-types';
import { isPublicEventType, PUBLIC_EVENT_TYPES, PublicEvent } from '../../../src/events';
import { verifyServiceSignature } from '../../../src/webhooks/signing';
import { verifyStandardSignature } from '../../../src/webhooks/standard-webhooks';
import { Received, WebhookReceiver } from '../../fakes/webhook-receiver';
import { openApiDocument } from '../../../src/openapi';
import { TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { FiredEvent, triggerEveryEvent } from '../../support/every-event';
import { createOrg, OrgFixture } from '../../support/orgs';
import { tempStorage } from '../../support/temp-storage';
import { loggedInAgent } from '../../support/users';
import {
  consumerNow,
  deliveriesOf,
  receivedAt,
  registerEndpoint,
  standardHeaders,
} from '../../support/webhooks';
import { FakeBilling } from '../../fakes/billing';
import { billingApp, closeBillingApp } from '../billing/billing-fixtures';

/** Every type outbound webhooks deliver that a route of an existing organization records. */
const FROM_ROUTES = PUBLIC_EVENT_TYPES.filter((type) => type !== 'organization.created');

const HOOK = '/every';

describe('every public event type from the route that records it (issue 21)', () => {
  const storage = tempStorage();
  let t: TestApp;
  let fake: FakeBilling;
  let receiver: WebhookReceiver;
  let owner: Agent;
  let org: OrgFixture;
  let endpoint: { id: string; secret: string };
  let fired: FiredEvent[];
  /** The organization's event list before the endpoint existed: its creation. */
  let before: PublicEvent[];
  /** The organization's event list after the steps, every page, newest first. */
  let listed: PublicEvent[];
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    ({ t, fake } = await billingApp({
      STORAGE_DIR: storage.dir,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    }));
    owner = (await loggedInAgent(t)).agent;
    org = await createOrg(owner, 'Every Event Inc.');
    before = await eventList();
    endpoint = await registerEndpoint(owner, org.id, receiver, { path: HOOK, events: ['*'] });
    fired = await triggerEveryEvent(t, owner, org, { billing: fake });
    listed = await eventList();
  });
  afterAll(async () => {
    await closeBillingApp(t, fake);
    await receiver.close();
    storage.remove();
  });

  async function eventList(): Promise<PublicEvent[]> {
    const all: PublicEvent[] = [];
    for (;;) {
      const after = all.at(-1)?.id;
      const page = (
        await owner
          .get(`/v1/organization/${org.id}/event`)
          .query({ limit: 100, ...(after ? { after } : {}) })
          .expect(200)
      ).body.data as PublicEvent[];
      if (!page.length) return all;
      all.push(...page);
    }
  }

  /** The listed events recorded after the endpoint was registered. */
  const deliverable = () => listed.filter((e) => !before.some((b) => b.id === e.id));

  /** Waits until the receiver holds as many deliveries as there are deliverable events. */
  const allDelivered = () => receivedAt(receiver, HOOK, deliverable().length, 30_000);

  it('fires each type of the catalogue but organization.created, once each', () => {
    const types = fired.map((f) => f.type);
    expect(new Set(types).size).toBe(types.length);
    expect([...types].sort()).toEqual([...FROM_ROUTES].sort());
  });

  it.each(FROM_ROUTES)(
    '%s: listed and delivered, signed, about the route’s resource',
    async (type) => {
      const step = fired.find((f) => f.type === type);
      expect(step).toBeDefined();
      const res = await owner
        .get(`/v1/organization/${org.id}/event`)
        .query({ type, limit: 100 })
        .expect(200);
      const events = res.body.data as PublicEvent[];
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((e) => e.type === type && e.organization === org.id)).toBe(true);
      const about = expect.objectContaining(step!.object);
      expect(events.map((e) => e.data.object)).toContainEqual(about);

      const ids = new Set(
        events.filter((e) => about.asymmetricMatch(e.data.object)).map((e) => e.id),
      );
      const got = await eventually(async (): Promise<Received> => {
        const delivered = receiver.at(HOOK).find((r) => ids.has(r.event.id));
        if (!delivered) throw new Error(`no ${type} delivered yet`);
        return delivered;
      }, 30_000);
      expect(got.event.type).toBe(type);
      expect(got.event.data.object).toEqual(about);
      expect(JSON.parse(got.body)).toEqual(events.find((e) => e.id === got.event.id));
      expect(got.headers['webhook-id']).toBe(got.event.id);
      expect(
        verifyServiceSignature(
          got.headers['service-signature'],
          got.body,
          endpoint.secret,
          consumerNow(),
        ),
      ).toBe(true);
      expect(
        verifyStandardSignature(standardHeaders(got), got.body, endpoint.secret, consumerNow()),
      ).toBe(true);
    },
  );

  it('the contract lists each public type’s data.object and each transaction type’s payload', async () => {
    const doc = (await openApiDocument(t.app)) as {
      components: { schemas: Record<string, { allOf?: { properties?: Record<string, any> }[] }> };
    };
    const own = (name: string) => doc.components.schemas[name]?.allOf?.[1]?.properties;
    expect(
      PUBLIC_EVENT_TYPES.filter((type) => !own(`Event_${type}`)?.data?.properties?.object),
    ).toEqual([]);
    expect(
      TRANSACTION_TYPES.filter((type) => !own(`Transaction_${type}`)?.payload?.properties),
    ).toEqual([]);
  });

  it('logs each step’s transaction as its type’s payload schema documents it', async () => {
    // The after-each check holds every entry of the answer to the document, where the items are
    // a oneOf discriminated by type, each with its definition's payload schema.
    const log = (
      await owner.get(`/v1/organization/${org.id}/transaction`).query({ limit: 1000 }).expect(200)
    ).body as { type: TransactionType; payload: object }[];
    const logged = new Set(log.map((e) => e.type));
    const withPublicEvents = TRANSACTION_TYPES.filter((type) => definitionOf(type).event?.public);
    expect(withPublicEvents.length).toBeGreaterThan(10);
    expect(withPublicEvents.filter((type) => !logged.has(type))).toEqual([]);
  });

  it('lists organization.created but never delivers it: the endpoint came after', async () => {
    const created = listed.filter((e) => e.type === 'organization.created');
    expect(created).toHaveLength(1);
    expect(created[0].data.object).toMatchObject({ id: org.id, name: 'Every Event Inc.' });
    // The creation also added the owner (member.added), likewise before the endpoint.
    expect(listed.map((e) => e.id)).toEqual(expect.arrayContaining(before.map((e) => e.id)));
    expect(before.map((e) => e.type).sort()).toEqual(['member.added', 'organization.created']);
    const got = await allDelivered();
    const rows = await deliveriesOf(t, endpoint.id);
    for (const early of before) {
      expect(got.map((r) => r.event.id)).not.toContain(early.id);
      expect(rows.map((d) => d.event_id)).not.toContain(early.id);
    }
    expect(got.map((r) => r.event.type)).not.toContain('organization.created');
  });

  it('delivers each event recorded after the endpoint once, nothing outside the catalogue', async () => {
    const got = await allDelivered();
    const ids = got.map((r) => r.event.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(
      deliverable()
        .map((e) => e.id)
        .sort(),
    );
    expect(got.filter((r) => !isPublicEventType(r.event.type))).toEqual([]);
    const rows = await deliveriesOf(t, endpoint.id);
    expect(rows.filter((d) => !isPublicEventType(d.event_type))).toEqual([]);
    expect(rows.map((d) => d.event_id).sort()).toEqual([...ids].sort());
    // The steps did record internal types (plan.*, billing.* ...): what the check above excludes.
    const recorded = (await t
      .get<DataSource>(DataSource)
      .query(`SELECT DISTINCT type FROM outbox_event WHERE organization_id = $1`, [org.id])) as {
      type: string;
    }[];
    expect(recorded.map((r) => r.type).filter((type) => !isPublicEventType(type))).not.toEqual([]);
  });
});
