import { createTestApp, TestApp } from '../../support/app';
import { errorBody } from '../../support/errors';
import { memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import {
  createHolding,
  IncentiveTable,
  incentiveTable,
  noteBody,
  optionBody,
  safeBody,
  warrantBody,
} from './holdings-fixtures';

describe('GET /v1/organization/:organization/holding', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const listPath = (x: IncentiveTable, query = '') =>
    `/v1/organization/${x.org.id}/holding${query}`;
  const ids = (body: { id: string }[]) => body.map((h) => h.id);

  /**
   * A table with a holding of each kind, oldest first: an ISO and a note of a holder with an
   * account (a Shareholder), an RSU, a warrant and a SAFE of Alice (no account); the RSU cancelled.
   */
  async function world() {
    const x = await incentiveTable(t);
    const holder = await memberAgent(t, x.owner.agent, x.org.id, 'Shareholder');
    const option = await createHolding(x.owner.agent, optionBody(x, { member: holder.member.id }));
    const rsu = await createHolding(
      x.owner.agent,
      optionBody(x, { type: 'rsu', quantity: '100', exercisePrice: undefined }),
    );
    const warrant = await createHolding(x.owner.agent, warrantBody(x));
    const note = await createHolding(x.owner.agent, noteBody(x, { member: holder.member.id }));
    const safe = await createHolding(x.owner.agent, safeBody(x));
    await x.owner.agent.delete(`/v1/holding/${rsu.id}`).expect(200);
    return { x, holder, option, rsu, warrant, note, safe };
  }
  type World = Awaited<ReturnType<typeof world>>;
  let w: World;
  beforeAll(async () => {
    w = await world();
  });

  it('lists every holding of the organization, of any status, oldest first, each as GET /v1/holding/:holding shows it', async () => {
    const res = await w.x.owner.agent.get(listPath(w.x)).expect(200);
    const expected = [w.option, w.rsu, w.warrant, w.note, w.safe];
    expect(ids(res.body)).toEqual(ids(expected));
    for (const holding of res.body as { id: string }[]) {
      expect(holding).toEqual(
        (await w.x.owner.agent.get(`/v1/holding/${holding.id}`).expect(200)).body,
      );
    }
    expect(res.body[1]).toMatchObject({ type: 'rsu', status: 'cancelled' });
    // Another organization's holdings are not in it, nor these in theirs.
    const other = await incentiveTable(t);
    const theirs = await createHolding(other.owner.agent, safeBody(other));
    expect(ids((await other.owner.agent.get(listPath(other)).expect(200)).body)).toEqual([
      theirs.id,
    ]);
    expect(ids((await w.x.owner.agent.get(listPath(w.x)).expect(200)).body)).toEqual(ids(expected));
  });

  it('pages with ?limit and ?offset, filters by ?type; refuses bad values and unknown parameters (400)', async () => {
    const agent = w.x.owner.agent;
    expect(ids((await agent.get(listPath(w.x, '?limit=2&offset=1')).expect(200)).body)).toEqual([
      w.rsu.id,
      w.warrant.id,
    ]);
    expect(ids((await agent.get(listPath(w.x, '?offset=5')).expect(200)).body)).toEqual([]);
    for (const [type, expected] of [
      ['warrant', [w.warrant]],
      ['option_iso', [w.option]],
      ['rsu', [w.rsu]],
      ['convertible_note', [w.note]],
      ['safe', [w.safe]],
      ['sar', []],
    ] as const) {
      const res = await agent.get(listPath(w.x, `?type=${type}`)).expect(200);
      expect({ type, ids: ids(res.body) }).toEqual({ type, ids: ids([...expected]) });
    }
    expect(
      ids((await agent.get(listPath(w.x, '?type=safe&limit=1&offset=0')).expect(200)).body),
    ).toEqual([w.safe.id]);
    for (const query of [
      '?type=share',
      '?limit=0',
      '?limit=1001',
      '?offset=-1',
      '?limit=many',
      '?member=x',
    ]) {
      const res = await agent.get(listPath(w.x, query));
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
    }
  });

  it('a role with canViewHolding sees every holding; any other member with canViewOrganization only their own', async () => {
    const viewer = await memberAgent(t, w.x.owner.agent, w.x.org.id, 'Viewer');
    expect(ids((await viewer.agent.get(listPath(w.x)).expect(200)).body)).toHaveLength(5);
    // The holder (a Shareholder): their own option and note only, and of those one type.
    const own = await w.holder.agent.get(listPath(w.x)).expect(200);
    expect(own.body).toEqual(
      (await w.x.owner.agent.get(listPath(w.x)).expect(200)).body.filter(
        (h: { member: string }) => h.member === w.holder.member.id,
      ),
    );
    expect(ids(own.body)).toEqual([w.option.id, w.note.id]);
    expect(
      ids((await w.holder.agent.get(listPath(w.x, '?type=convertible_note')).expect(200)).body),
    ).toEqual([w.note.id]);
    // A Shareholder holding nothing sees nothing.
    const stranger = await memberAgent(t, w.x.owner.agent, w.x.org.id, 'Shareholder');
    expect((await stranger.agent.get(listPath(w.x)).expect(200)).body).toEqual([]);
    // Custom roles: canViewHolding decides between all and one's own.
    const role = async (name: string, permissions: string[]) =>
      (
        await w.x.owner.agent
          .post(`/v1/organization/${w.x.org.id}/role`)
          .send({ name, permissions })
          .expect(201)
      ).body.id as string;
    const reader = await memberAgent(
      t,
      w.x.owner.agent,
      w.x.org.id,
      await role('Holding reader', ['canViewOrganization', 'canViewHolding']),
    );
    expect(ids((await reader.agent.get(listPath(w.x)).expect(200)).body)).toHaveLength(5);
    const plain = await memberAgent(
      t,
      w.x.owner.agent,
      w.x.org.id,
      await role('Organization only', ['canViewOrganization']),
    );
    expect((await plain.agent.get(listPath(w.x)).expect(200)).body).toEqual([]);
  });

  it('refuses: 401 without a session; 403 for a role without canViewOrganization, an outsider and a removed member; 404 for an unknown organization', async () => {
    await t.http.get(listPath(w.x)).expect(401).expect(errorBody(401));
    const none = await w.x.owner.agent
      .post(`/v1/organization/${w.x.org.id}/role`)
      .send({ name: 'Nothing', permissions: [] })
      .expect(201);
    const nobody = await memberAgent(t, w.x.owner.agent, w.x.org.id, none.body.id);
    await nobody.agent.get(listPath(w.x)).expect(403).expect(errorBody(403));
    const outsider = await loggedInAgent(t);
    await outsider.agent.get(listPath(w.x)).expect(403).expect(errorBody(403));
    // A holder removed from the organization no longer reads even their own.
    const y = await incentiveTable(t);
    const leaving = await memberAgent(t, y.owner.agent, y.org.id, 'Shareholder');
    await createHolding(y.owner.agent, safeBody(y, { member: leaving.member.id }));
    expect((await leaving.agent.get(listPath(y)).expect(200)).body).toHaveLength(1);
    await y.owner.agent
      .delete(`/v1/organization/${y.org.id}/member/${leaving.member.id}`)
      .expect(200);
    await leaving.agent.get(listPath(y)).expect(403).expect(errorBody(403));
    await w.x.owner.agent
      .get('/v1/organization/00000000-0000-4000-8000-00000000abcd/holding')
      .expect(404)
      .expect(errorBody(404));
    await w.x.owner.agent.get('/v1/organization/not-a-uuid/holding').expect(400);
  });
});
