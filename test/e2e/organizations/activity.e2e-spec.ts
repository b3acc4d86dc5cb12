import { createTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { errorBody } from '../../support/errors';

const UNKNOWN = '6f1c1d1e-0000-4000-8000-000000000000';

interface ActionBody {
  id: string;
  type: string;
  description: string;
  userId: string | null;
  created: string;
  metadata: Record<string, unknown>;
}

describe('activity log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const path = (org: string) => `/v1/organization/${org}/action`;

  it('shows the domain events of a scripted session, each naming what changed', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Evented');
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    await owner.agent
      .patch(`/v1/organization/${org.id}/member/${viewer.member.id}`)
      .send({ role: 'Editor', title: 'Counsel' })
      .expect(200);
    const role = await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Auditor', permissions: [] })
      .expect(201);
    await owner.agent
      .put(`/v1/organization/${org.id}/role/${role.body.id}`)
      .send({ name: 'Auditor', permissions: ['canViewCapTable'] })
      .expect(200);
    await owner.agent.patch(`/v1/organization/${org.id}`).send({ currency: 'EUR' }).expect(200);

    const expected = [
      ['organization.created', 'organization Evented: created'],
      ['member.added', `member ${owner.email}: added as Owner`],
      ['member.invited', `member ${viewer.email}: invited as Viewer`],
      ['member.updated', `member ${viewer.email}: accepted the invitation`],
      ['member.updated', `member ${viewer.email}: role Viewer -> Editor; title none -> Counsel`],
      ['role.created', 'role Auditor: created with no permissions'],
      ['role.updated', 'role Auditor: added permission canViewCapTable'],
      ['organization.updated', 'organization Evented: currency USD -> EUR'],
    ];
    const entries = await eventually(async (): Promise<ActionBody[]> => {
      const body = (await owner.agent.get(path(org.id)).expect(200)).body as ActionBody[];
      if (body.length < expected.length) throw new Error(`not yet: ${body.length} entries`);
      return body;
    });
    // Events of one transaction share its timestamp, so compare without their order.
    const seenPairs = entries.map((a) => [a.type, a.description]);
    expect(seenPairs).toHaveLength(expected.length);
    expect(seenPairs).toEqual(expect.arrayContaining(expected));
    expect(entries[0].type).toBe('organization.updated');
    const created = entries.find((a) => a.type === 'organization.created')!;
    expect(created).toMatchObject({ userId: owner.user.id });
    expect(created.metadata).toMatchObject({
      data: { object: expect.objectContaining({ id: org.id }) },
    });
    const accepted = entries.find((a) => a.description.endsWith('accepted the invitation'))!;
    expect(accepted.userId).toBe(viewer.user.id);
    // The member (canViewOrganization) sees the same log.
    const seen = await viewer.agent.get(path(org.id)).expect(200);
    expect(seen.body.map((a: ActionBody) => a.id)).toEqual(
      expect.arrayContaining(entries.map((a) => a.id)),
    );
  });

  it('records an action written by a member and lists it newest first', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Writers');
    const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
    const res = await shareholder.agent
      .post(path(org.id))
      .send({
        type: 'document.viewed',
        description: 'Opened the SAFE',
        metadata: { file: 'safe.pdf', pages: [1, 2] },
      })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'document.viewed',
      description: 'Opened the SAFE',
      userId: shareholder.user.id,
      created: expect.any(String),
      metadata: { file: 'safe.pdf', pages: [1, 2] },
    });
    const second = await owner.agent
      .post(path(org.id))
      .send({ type: 'note.added', description: 'Second' })
      .expect(201);
    expect(second.body.metadata).toEqual({});
    const list = await owner.agent.get(path(org.id)).query({ type: 'note.' }).expect(200);
    expect(list.body).toEqual([second.body]);
    const all = await owner.agent.get(path(org.id)).expect(200);
    const ids = all.body.map((a: ActionBody) => a.id);
    expect(ids.indexOf(second.body.id)).toBeLessThan(ids.indexOf(res.body.id));
  });

  it('POST takes any dot-notation type: one segment, mixed case, - and _', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Types Inc.');
    for (const type of ['export', 'shareholding.statusChanged', 'report-2026.Q1_final']) {
      const res = await owner.agent
        .post(path(org.id))
        .send({ type, description: type })
        .expect(201);
      expect(res.body.type).toBe(type);
    }
    const camel = await owner.agent
      .get(path(org.id))
      .query({ type: 'shareholding.status' })
      .expect(200);
    expect(camel.body.map((a: ActionBody) => a.type)).toEqual(['shareholding.statusChanged']);
  });

  it('pages with limit and before, and filters by type prefix', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Pager');
    const written: ActionBody[] = [];
    for (let i = 0; i < 7; i++) {
      const type = i % 2 ? 'test_run.odd' : 'test_run.even';
      written.push(
        (
          await owner.agent
            .post(path(org.id))
            .send({ type, description: `entry ${i}` })
            .expect(201)
        ).body,
      );
    }
    const newestFirst = written.map((a) => a.id).reverse();
    const page1 = await owner.agent
      .get(path(org.id))
      .query({ type: 'test_run.', limit: 3 })
      .expect(200);
    expect(page1.body.map((a: ActionBody) => a.id)).toEqual(newestFirst.slice(0, 3));
    const page2 = await owner.agent
      .get(path(org.id))
      .query({ type: 'test_run.', limit: 3, before: newestFirst[2] })
      .expect(200);
    expect(page2.body.map((a: ActionBody) => a.id)).toEqual(newestFirst.slice(3, 6));
    const page3 = await owner.agent
      .get(path(org.id))
      .query({ type: 'test_run.', limit: 3, before: newestFirst[5] })
      .expect(200);
    expect(page3.body.map((a: ActionBody) => a.id)).toEqual(newestFirst.slice(6));
    const odd = await owner.agent.get(path(org.id)).query({ type: 'test_run.odd' }).expect(200);
    expect(odd.body).toHaveLength(3);
    // `_` in a prefix is literal, not a LIKE wildcard.
    const literal = await owner.agent.get(path(org.id)).query({ type: 'testxrun' }).expect(200);
    expect(literal.body).toEqual([]);
    const memberOnly = await owner.agent.get(path(org.id)).query({ type: 'member.' }).expect(200);
    expect(memberOnly.body.every((a: ActionBody) => a.type.startsWith('member.'))).toBe(true);
  });

  it.each([
    [{ type: '1member.added', description: 'x' }, 'type'],
    [{ type: '.member', description: 'x' }, 'type'],
    [{ type: 'member.<b>', description: 'x' }, 'type'],
    [{ type: 'member.', description: 'x' }, 'type'],
    [{ type: 'member..added', description: 'x' }, 'type'],
    [{ type: 'member added', description: 'x' }, 'type'],
    [{ description: 'x' }, 'type'],
    [{ type: 'member.added' }, 'description'],
    [{ type: 'member.added', description: '' }, 'description'],
    [{ type: 'member.added', description: 'x'.repeat(2001) }, 'description'],
    [{ type: 'member.added', description: 'x', metadata: [1, 2] }, 'metadata'],
    [{ type: 'member.added', description: 'x', metadata: null }, 'metadata'],
    [{ type: 'member.added', description: 'x', metadata: 'text' }, 'metadata'],
    [
      { type: 'member.added', description: 'x', metadata: { blob: 'x'.repeat(16 * 1024) } },
      'metadata',
    ],
  ])('POST refuses %j with 400 naming %s', async (body, field) => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Strict');
    const res = await owner.agent.post(path(org.id)).send(body).expect(400);
    expect(res.body.error).toBe('Bad Request');
    expect(res.body.message).toContain(field);
  });

  it('GET refuses a bad limit, before or type with 400', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Queries');
    const other = await createOrg(owner.agent, 'Other');
    const foreign = await owner.agent
      .post(path(other.id))
      .send({ type: 'a.b', description: 'elsewhere' })
      .expect(201);
    for (const query of [{ limit: 0 }, { limit: 1001 }, { limit: 'ten' }, { limit: 1.5 }]) {
      const res = await owner.agent.get(path(org.id)).query(query).expect(400);
      expect(res.body.message).toContain('limit');
    }
    await owner.agent.get(path(org.id)).query({ limit: 1000 }).expect(200);
    await owner.agent.get(path(org.id)).query({ before: 'nope' }).expect(400);
    await owner.agent.get(path(org.id)).query({ before: UNKNOWN }).expect(400);
    // Another organization's entry is no cursor here, even for someone who may read both.
    await owner.agent.get(path(org.id)).query({ before: foreign.body.id }).expect(400);
    await owner.agent.get(path(org.id)).query({ type: 'Member%' }).expect(400);
  });

  it('requires a session', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Closed');
    await t.http.get(path(org.id)).expect(401).expect(errorBody(401));
    await t.http.post(path(org.id)).send({ type: 'a.b', description: 'x' }).expect(401);
  });

  it('refuses another organization’s members (403), an unknown organization (404) and a malformed id (400)', async () => {
    const a = await loggedInAgent(t);
    const b = await loggedInAgent(t);
    const orgA = await createOrg(a.agent, 'A');
    await createOrg(b.agent, 'B');
    await b.agent.get(path(orgA.id)).expect(403).expect(errorBody(403));
    await b.agent.post(path(orgA.id)).send({ type: 'a.b', description: 'x' }).expect(403);
    const list = await a.agent.get(path(orgA.id)).query({ type: 'a.' }).expect(200);
    expect(list.body).toEqual([]);
    await a.agent.get(path(UNKNOWN)).expect(404);
    await a.agent.post(path(UNKNOWN)).send({ type: 'a.b', description: 'x' }).expect(404);
    await a.agent.get(path('nope')).expect(400);
  });
});
