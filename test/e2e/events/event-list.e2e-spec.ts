import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { API_VERSION, PUBLIC_EVENT_TYPES } from '../../../src/events';
import { createTestApp, TestApp } from '../../support/app';
import { ERROR_BODIES } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { ownerWithOrg } from '../../support/world';

const path = (org: string) => `/v1/organization/${org}/event`;
const unknownEventId = () => `evt_${randomBytes(16).toString('hex')}`;

interface Event {
  id: string;
  type: string;
  created: string;
}

describe('event list (spec section 6)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The organization's stored events of the catalogue, newest first, straight from the outbox. */
  const stored = async (org: string) =>
    (
      (await t
        .get<DataSource>(DataSource)
        .query(
          `SELECT id, type FROM outbox_event WHERE organization_id = $1 AND type = ANY($2) ORDER BY sequence DESC`,
          [org, PUBLIC_EVENT_TYPES],
        )) as { id: string; type: string }[]
    ).map((e) => `${e.type} ${e.id}`);

  async function orgWithEvents() {
    const { owner, org } = await ownerWithOrg(t, 'Events Inc.');
    const role = await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Auditor', permissions: ['canViewOrganization'] })
      .expect(201);
    // An internal type: recorded, never listed.
    await owner.agent
      .post(`/v1/organization/${org.id}/legend`)
      .send({ name: 'Restricted', text: 'These shares are restricted.' })
      .expect(201);
    await owner.agent.patch(`/v1/organization/${org.id}`).send({ name: 'Events Co.' }).expect(200);
    return { owner, org, role: role.body as { id: string } };
  }

  /** Besides, an event of another organization of the owner's, and the internal legend.created. */
  async function orgWithForeignEvents() {
    const world = await orgWithEvents();
    const other = await createOrg(world.owner.agent, 'Other');
    const list = await world.owner.agent.get(path(other.id)).expect(200);
    const [legend] = (await t
      .get<DataSource>(DataSource)
      .query(`SELECT id FROM outbox_event WHERE organization_id = $1 AND type = 'legend.created'`, [
        world.org.id,
      ])) as { id: string }[];
    return { ...world, otherEvent: list.body.data[0] as Event, legend };
  }

  it('lists the catalogue’s events newest first in the envelope, organization.created included', async () => {
    const { owner, org } = await orgWithEvents();
    const res = await owner.agent.get(path(org.id)).expect(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    const events = res.body.data as Event[];
    expect(events.map((e) => `${e.type} ${e.id}`)).toEqual(await stored(org.id));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('organization.updated');
    expect(types[1]).toBe('role.created');
    expect(types[types.length - 1]).toBe('organization.created');
    expect(types).not.toContain('legend.created');
    for (const type of types) expect(PUBLIC_EVENT_TYPES).toContain(type);
    const created = events.map((e) => Date.parse(e.created));
    expect([...created].sort((a, b) => b - a)).toEqual(created);

    const org1 = await owner.agent.get(`/v1/organization/${org.id}`).expect(200);
    expect(events[0]).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'organization.updated',
      api_version: API_VERSION,
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      organization: org.id,
      data: {
        object: expect.objectContaining({ id: org.id, name: 'Events Co.' }),
        previous_attributes: { name: 'Events Inc.' },
      },
    });
    expect(org1.body.name).toBe('Events Co.');
    expect(events[events.length - 1]).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'organization.created',
      api_version: API_VERSION,
      created: expect.any(String),
      organization: org.id,
      data: { object: expect.objectContaining({ id: org.id }), previous_attributes: {} },
    });
  });

  it('answers one event by id as the list shows it', async () => {
    const { owner, org } = await orgWithEvents();
    const list = (await owner.agent.get(path(org.id)).expect(200)).body.data as Event[];
    for (const event of [list[0], list[list.length - 1]]) {
      const res = await owner.agent.get(`${path(org.id)}/${event.id}`).expect(200);
      expect(res.body).toEqual(event);
    }
  });

  it('pages with limit and after (exclusive), and filters by type', async () => {
    const { owner, org } = await orgWithEvents();
    const all = (await owner.agent.get(path(org.id)).expect(200)).body.data as Event[];
    expect(all.length).toBeGreaterThanOrEqual(4);
    const pages: Event[] = [];
    let after: string | undefined;
    for (;;) {
      const page = (
        await owner.agent
          .get(path(org.id))
          .query({ limit: 2, ...(after ? { after } : {}) })
          .expect(200)
      ).body.data as Event[];
      expect(page.length).toBeLessThanOrEqual(2);
      if (!page.length) break;
      pages.push(...page);
      after = page[page.length - 1].id;
    }
    expect(pages).toEqual(all);

    const roles = await owner.agent.get(path(org.id)).query({ type: 'role.created' }).expect(200);
    expect(roles.body.data.map((e: Event) => e.type)).toEqual(['role.created']);
    const created = await owner.agent
      .get(path(org.id))
      .query({ type: 'organization.created', after: all[0].id })
      .expect(200);
    expect(created.body.data).toEqual([all[all.length - 1]]);
    const none = await owner.agent.get(path(org.id)).query({ type: 'payment.failed' }).expect(200);
    expect(none.body).toEqual({ data: [] });
  });

  it('refuses bad queries and a malformed event id with 400', async () => {
    const { owner, org, otherEvent, legend } = await orgWithForeignEvents();
    for (const query of [
      { type: 'legend.created' },
      { type: 'billing.member_count_changed' },
      { type: 'nope' },
      { type: 'member.*' },
      { limit: 0 },
      { limit: 101 },
      { limit: 'ten' },
      { after: 'nope' },
      { after: randomBytes(16).toString('hex') },
      { after: unknownEventId().toUpperCase() },
      // Well formed, but no event of this organization's list.
      { after: unknownEventId() },
      { after: otherEvent.id },
      { after: legend.id },
    ]) {
      const res = await owner.agent.get(path(org.id)).query(query);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body).toMatchObject({ error: 'Bad Request', message: expect.any(String) });
    }
    await owner.agent.get(path(org.id)).query({ limit: 100 }).expect(200);
    await owner.agent.get(path(org.id)).query({ limit: 1 }).expect(200);

    const unknown = await owner.agent
      .get(path(org.id))
      .query({ before: otherEvent.id })
      .expect(400);
    expect(unknown.body).toEqual({
      message: expect.stringMatching(/unknown query parameter "before"/),
    });

    for (const id of [
      'nope',
      'evt_123',
      `evt_${'g'.repeat(32)}`,
      'a1b2c3d4-0000-4000-8000-000000000000',
    ]) {
      const res = await owner.agent.get(`${path(org.id)}/${id}`).expect(400);
      expect(res.body.message).toMatch(/event must be `evt_` \+ 32 hex characters/);
    }
  });

  it('answers 404 for an unknown event, another organization’s, and an internal one', async () => {
    const { owner, org, otherEvent, legend } = await orgWithForeignEvents();
    for (const id of [unknownEventId(), otherEvent.id, legend.id]) {
      const res = await owner.agent.get(`${path(org.id)}/${id}`).expect(404);
      expect(res.body).toEqual(ERROR_BODIES[404]);
    }
  });

  it('needs a session (401) and canViewOrganization in that organization (403)', async () => {
    const { owner, org } = await orgWithEvents();
    const event = (await owner.agent.get(path(org.id)).expect(200)).body.data[0] as Event;
    for (const url of [path(org.id), `${path(org.id)}/${event.id}`]) {
      const anonymous = await t.http.get(url).expect(401);
      expect(anonymous.body).toEqual(ERROR_BODIES[401]);
    }
    const outsider = await loggedInAgent(t);
    await createOrg(outsider.agent, 'Outsider Inc.');
    for (const url of [path(org.id), `${path(org.id)}/${event.id}`]) {
      const res = await outsider.agent.get(url).expect(403);
      expect(res.body).toEqual(ERROR_BODIES[403]);
    }
    const nothing = await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Nothing', permissions: [] })
      .expect(201);
    const member = await memberAgent(t, owner.agent, org.id, nothing.body.name);
    for (const url of [path(org.id), `${path(org.id)}/${event.id}`]) {
      const res = await member.agent.get(url).expect(403);
      expect(res.body).toEqual(ERROR_BODIES[403]);
    }
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    await viewer.agent.get(path(org.id)).expect(200);
    await viewer.agent.get(`${path(org.id)}/${event.id}`).expect(200);
  });
});
