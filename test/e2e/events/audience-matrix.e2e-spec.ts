import type { Agent } from 'supertest';
import { PUBLIC_EVENT_TYPES, type PublicEvent } from '../../../src/events';
import { FakeBilling } from '../../fakes/billing';
import { WebhookReceiver } from '../../fakes/webhook-receiver';
import { TestApp } from '../../support/app';
import { createSecurity, issue } from '../../support/cap-table';
import { ERROR_BODIES } from '../../support/errors';
import { triggerEveryEvent } from '../../support/every-event';
import { createOrg, memberAgent, OrgFixture } from '../../support/orgs';
import { tempStorage } from '../../support/temp-storage';
import { loggedInAgent } from '../../support/users';
import { webhookPath } from '../../support/webhooks';
import { billingApp, closeBillingApp } from '../billing/billing-fixtures';
import { createHolding, warrantBody } from '../cap-table/holdings-fixtures';

/**
 * Issue 35 section 2: the event list, one event, the webhook list and the delivery history, for
 * each role. An event reaches the roles holding the permission of its record's read route (as the
 * activity log's entries do) and the members it is about; everything else is as unknown as a
 * missing event (404), and `limit` and `after` count only what the reader sees.
 */

/** What canViewOrganization alone reads: the organization, its roles and its share classes. */
const ORG_WIDE = new Set([
  'organization.created',
  'organization.updated',
  'role.created',
  'role.updated',
  'role.deleted',
  'security.created',
  'security.updated',
  'security.deleted',
]);
/** canEditOrganizationBilling: the Owner's and Admin's alone among the built-in roles. */
const BILLING = new Set([
  'subscription.created',
  'subscription.cancelled',
  'payment.succeeded',
  'payment.failed',
]);

type Reader = { name: string; agent: Agent; memberId: string | null };

/** The event is about the member: their member record, or a holding of theirs. */
const about = (e: PublicEvent, memberId: string) => {
  const object = e.data.object;
  if (e.type.startsWith('member.')) return object.id === memberId;
  if (/^(shareholding|holding)\./.test(e.type)) return object.member === memberId;
  return false;
};

describe('who reads which events, webhooks and deliveries (issue 35 section 2)', () => {
  const storage = tempStorage();
  let t: TestApp;
  let fake: FakeBilling;
  let receiver: WebhookReceiver;
  let org: OrgFixture;
  let owner: Reader;
  let admin: Reader;
  let editor: Reader;
  let viewer: Reader;
  let holder: Reader;
  let observer: Reader;
  /** Every event of the organization, newest first, as its Owner reads them. */
  let all: PublicEvent[];
  let own: { shareholding: string; warrant: string };
  let endpoint: { id: string; url: string };

  /** The events each reader must get, newest first. */
  let expected: Map<Reader, PublicEvent[]>;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    ({ t, fake } = await billingApp({
      STORAGE_DIR: storage.dir,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    }));
    const login = await loggedInAgent(t);
    org = await createOrg(login.agent, 'Audience Events Inc.');
    owner = { name: 'Owner', agent: login.agent, memberId: null };
    const role = await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Observer', permissions: ['canViewOrganization'] })
      .expect(201);
    const join = async (name: string, roleName: string): Promise<Reader> => {
      const m = await memberAgent(t, owner.agent, org.id, roleName);
      return { name, agent: m.agent, memberId: m.member.id };
    };
    admin = await join('Admin', 'Admin');
    editor = await join('Editor', 'Editor');
    viewer = await join('Viewer', 'Viewer');
    holder = await join('Shareholder', 'Shareholder');
    observer = await join('Observer', role.body.name as string);

    // The Shareholder's own records: a shareholding (created, then changed) and a warrant.
    const founders = await createSecurity(owner.agent, org.id, {
      name: 'Founders Common',
      idPrefix: 'FC-',
    });
    const shares = await issue(owner.agent, org.id, {
      member: holder.memberId!,
      security: founders.id,
      quantity: '2500',
    });
    await owner.agent
      .patch(`/v1/shareholding/${shares.id}`)
      .send({ consideration: 'Services' })
      .expect(200);
    const warrant = await createHolding(
      owner.agent,
      warrantBody({ org, alice: { id: holder.memberId! }, security: founders }),
    );
    own = { shareholding: shares.id, warrant: warrant.id };

    // An endpoint whose URL carries credentials in its user info, path and query; inactive, so
    // only its test event is sent: one attempt with the receiver's answer in the history.
    const url = `http://hook-user:hook-password@127.0.0.1:${receiver.port}/in/secret-path?token=hook-token`;
    const created = await owner.agent
      .post(webhookPath(org.id))
      .send({ url, active: false })
      .expect(201);
    endpoint = { id: created.body.id, url: created.body.url };
    receiver.respond = () => ({ status: 200, body: 'receiver says: account 4711 ok' });
    await owner.agent
      .post(`${webhookPath(org.id)}/${endpoint.id}/test`)
      .send({})
      .expect(200);

    await triggerEveryEvent(t, owner.agent, org, { billing: fake });
    all = await eventList(owner.agent);

    const readable = (reader: Reader, types: (type: string) => boolean) =>
      all.filter((e) => types(e.type) || (reader.memberId !== null && about(e, reader.memberId)));
    expected = new Map([
      [owner, all],
      [admin, all],
      [editor, readable(editor, (type) => !BILLING.has(type))],
      [viewer, readable(viewer, (type) => !BILLING.has(type))],
      [holder, readable(holder, (type) => ORG_WIDE.has(type))],
      [observer, readable(observer, (type) => ORG_WIDE.has(type))],
    ]);
  });
  afterAll(async () => {
    await closeBillingApp(t, fake);
    await receiver.close();
    storage.remove();
  });

  const readers = () => [owner, admin, editor, viewer, holder, observer];
  const typesOf = (events: PublicEvent[]) => [...new Set(events.map((e) => e.type))].sort();

  async function eventList(agent: Agent, query: Record<string, unknown> = {}) {
    const events: PublicEvent[] = [];
    for (;;) {
      const after = events.at(-1)?.id;
      const page = (
        await agent
          .get(`/v1/organization/${org.id}/event`)
          .query({ limit: 100, ...query, ...(after ? { after } : {}) })
          .expect(200)
      ).body.data as PublicEvent[];
      if (!page.length) return events;
      events.push(...page);
    }
  }

  it('the Owner’s list holds every type of the catalogue, the Shareholder’s records among them', () => {
    expect(typesOf(all)).toHaveLength(PUBLIC_EVENT_TYPES.length);
    const ownIds = all
      .filter((e) => about(e, holder.memberId!))
      .map((e) => `${e.type} ${String(e.data.object.id)}`);
    expect(ownIds).toEqual(
      expect.arrayContaining([
        `shareholding.updated ${own.shareholding}`,
        `shareholding.created ${own.shareholding}`,
        `holding.created ${own.warrant}`,
        `member.invited ${holder.memberId}`,
      ]),
    );
  });

  it('each role lists exactly the events of its permissions and those about itself', async () => {
    for (const reader of readers()) {
      const listed = await eventList(reader.agent);
      expect({ reader: reader.name, ids: listed.map((e) => `${e.type} ${e.id}`) }).toEqual({
        reader: reader.name,
        ids: expected.get(reader)!.map((e) => `${e.type} ${e.id}`),
      });
      // As the Owner reads them: the same envelope, data.object whole.
      expect(listed).toEqual(expected.get(reader));
    }
    // What the rule amounts to, spelt out.
    expect(typesOf(expected.get(editor)!)).toEqual(
      typesOf(all).filter((type) => !BILLING.has(type)),
    );
    expect(typesOf(expected.get(holder)!)).toEqual(
      [
        ...ORG_WIDE,
        'member.invited',
        'member.updated',
        'shareholding.created',
        'shareholding.updated',
        'holding.created',
      ].sort(),
    );
    expect(typesOf(expected.get(observer)!)).toEqual(
      [...ORG_WIDE, 'member.invited', 'member.updated'].sort(),
    );
    // Nobody without canViewValuation reads a valuation, nor another member's holdings.
    for (const reader of [holder, observer]) {
      const text = JSON.stringify(await eventList(reader.agent));
      expect(text).not.toContain('valuation.');
      expect(text).not.toContain('"Alice');
      expect(text).not.toContain('payment.');
      expect(text).not.toContain('document.');
    }
  });

  it('answers one event to those who list it, 404 to the others as for an unknown event', async () => {
    for (const reader of readers()) {
      const visible = new Set(expected.get(reader)!.map((e) => e.id));
      const answers: string[] = [];
      for (const event of all) {
        const res = await reader.agent.get(`/v1/organization/${org.id}/event/${event.id}`);
        if (visible.has(event.id)) {
          expect(res.body).toEqual(event);
        } else {
          expect(res.body).toEqual(ERROR_BODIES[404]);
        }
        answers.push(`${event.type} ${event.id} ${res.status}`);
      }
      expect({ reader: reader.name, answers }).toEqual({
        reader: reader.name,
        answers: all.map((e) => `${e.type} ${e.id} ${visible.has(e.id) ? 200 : 404}`),
      });
    }
  });

  it('limit and after count the reader’s events only; an event they may not see is no cursor', async () => {
    for (const reader of [holder, observer, editor]) {
      const mine = expected.get(reader)!;
      // The newest event the reader sees, not an empty page of others'.
      const first = await reader.agent
        .get(`/v1/organization/${org.id}/event`)
        .query({ limit: 1 })
        .expect(200);
      expect(first.body.data.map((e: PublicEvent) => e.id)).toEqual([mine[0].id]);
      // Pages of 2 are the list, in order, each full but the last.
      const paged: string[][] = [];
      let after: string | undefined;
      for (;;) {
        const page = (
          await reader.agent
            .get(`/v1/organization/${org.id}/event`)
            .query({ limit: 2, ...(after ? { after } : {}) })
            .expect(200)
        ).body.data as PublicEvent[];
        if (!page.length) break;
        paged.push(page.map((e) => e.id));
        after = page.at(-1)!.id;
      }
      expect(paged.flat()).toEqual(mine.map((e) => e.id));
      expect(paged.slice(0, -1).every((p) => p.length === 2)).toBe(true);

      const hidden = all.filter((e) => !mine.includes(e));
      expect(hidden.length).toBeGreaterThan(0);
      for (const cursor of [hidden[0], hidden.at(-1)!]) {
        const res = await reader.agent
          .get(`/v1/organization/${org.id}/event`)
          .query({ after: cursor.id })
          .expect(400);
        expect(res.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
      }
    }
    // A type filter within the reader's events: the Shareholder's own shareholding only.
    const created = await holder.agent
      .get(`/v1/organization/${org.id}/event`)
      .query({ type: 'shareholding.created' })
      .expect(200);
    expect(created.body.data.map((e: PublicEvent) => e.data.object.id)).toEqual([own.shareholding]);
    for (const type of ['valuation.created', 'payment.succeeded', 'document.uploaded']) {
      const none = await holder.agent
        .get(`/v1/organization/${org.id}/event`)
        .query({ type })
        .expect(200);
      expect({ type, body: none.body }).toEqual({ type, body: { data: [] } });
    }
  });

  it('shows the webhook URL whole to those who may edit the organization, its origin to the others', async () => {
    const origin = `http://127.0.0.1:${receiver.port}`;
    for (const reader of readers()) {
      const res = await reader.agent.get(webhookPath(org.id)).expect(200);
      const editsOrganization = reader === owner || reader === admin;
      expect({
        reader: reader.name,
        urls: res.body.data.map((w: { url: string }) => w.url),
      }).toEqual({ reader: reader.name, urls: [editsOrganization ? endpoint.url : origin] });
      expect(res.body.data[0]).toMatchObject({ id: endpoint.id, events: ['*'], active: false });
      if (!editsOrganization) {
        const text = JSON.stringify(res.body);
        for (const secret of ['hook-user', 'hook-password', 'secret-path', 'hook-token']) {
          expect(text).not.toContain(secret);
        }
      }
    }
  });

  it('shows the delivery history (receivers’ answers) only to those who may edit the organization', async () => {
    const history = `${webhookPath(org.id)}/${endpoint.id}/delivery`;
    for (const reader of readers()) {
      const res = await reader.agent.get(history);
      if (reader === owner || reader === admin) {
        expect({ reader: reader.name, status: res.status }).toEqual({
          reader: reader.name,
          status: 200,
        });
        expect(res.body.data).toEqual([
          expect.objectContaining({
            eventType: 'organization.updated',
            httpStatus: 200,
            responseBody: 'receiver says: account 4711 ok',
          }),
        ]);
      } else {
        expect({ reader: reader.name, status: res.status, body: res.body }).toEqual({
          reader: reader.name,
          status: 403,
          body: ERROR_BODIES[403],
        });
      }
    }
  });
});
