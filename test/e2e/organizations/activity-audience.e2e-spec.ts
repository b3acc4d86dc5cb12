import type { Agent } from 'supertest';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { eventually } from '../../support/eventually';
import { memberAgent } from '../../support/orgs';
import { createPlan } from '../cap-table/holdings-fixtures';
import { ownerWithOrg } from '../../support/world';

interface Entry {
  id: string;
  type: string;
  description: string;
  metadata: { data?: { object?: Record<string, unknown> } };
}

/**
 * Who reads which activity entries (issue 19, High: every member read the whole cap table through
 * the activity log). An entry derived from an event reaches those whose role holds the permission
 * of its record's read route, and the members it is about; written entries reach everyone.
 */
describe('activity log audiences', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const log = async (agent: Agent, org: string, query: Record<string, unknown> = {}) =>
    (
      await agent
        .get(`/v1/organization/${org}/action`)
        .query({ limit: 1000, ...query })
        .expect(200)
    ).body as Entry[];
  const typesOf = (entries: Entry[]) => [...new Set(entries.map((e) => e.type))].sort();
  const objectOf = (e: Entry) => e.metadata.data?.object ?? {};

  /** Everything that happened, per type: how many entries the Owner must see. */
  const EXPECTED_COUNTS: Record<string, number> = {
    'organization.created': 1,
    'security.created': 1,
    'legend.created': 1,
    'role.created': 1,
    'shareholding.created': 2,
    'shareholding.transferred': 1,
    'valuation.created': 1,
    'plan.created': 1,
    'holding.created': 2,
    'option.exercise_requested': 1,
    'note.written': 1,
  };

  async function world() {
    const { owner, org } = await ownerWithOrg(t, 'Audience Inc.');
    const role = await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Observer', permissions: ['canViewOrganization'] })
      .expect(201);
    const admin = await memberAgent(t, owner.agent, org.id, 'Admin');
    const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
    const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
    const holder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
    const observer = await memberAgent(t, owner.agent, org.id, role.body.name as string);
    const bob = await createHolder(owner.agent, org.id, 'Bob Other');
    const common = await createSecurity(owner.agent, org.id);
    await owner.agent
      .post(`/v1/organization/${org.id}/legend`)
      .send({ name: 'Rule 144', text: 'Restricted securities' })
      .expect(201);
    const own = await issue(owner.agent, org.id, {
      member: holder.member.id,
      security: common.id,
      quantity: '1000',
    });
    const bobs = await issue(owner.agent, org.id, {
      member: bob.id,
      security: common.id,
      quantity: '5000',
      pricePerShare: '0.25',
    });
    await owner.agent
      .post(`/v1/organization/${org.id}/shareholding/transfer`)
      .send({
        shareholding: bobs.id,
        toMember: holder.member.id,
        quantity: '100',
        date: '2024-06-01',
      })
      .expect(201);
    await owner.agent
      .put('/v1/valuation')
      .send({
        organization: org.id,
        type: '409A',
        // Four decimals: a timestamp's milliseconds (three digits, then Z) never spell it.
        pricePerShare: '3.2175',
        effectiveDate: '2024-04-01',
      })
      .expect(200);
    const plan = await createPlan(owner.agent, org.id, common.id);
    const grant = await owner.agent
      .post('/v1/holding')
      .send({
        organization: org.id,
        member: holder.member.id,
        type: 'option_nso',
        plan: plan.id,
        pool: plan.pools[0].id,
        quantity: '400',
        exercisePrice: '0.5',
        grantDate: '2024-02-01',
        earlyExercisable: true,
      })
      .expect(201);
    await owner.agent
      .post('/v1/holding')
      .send({
        organization: org.id,
        member: bob.id,
        type: 'safe',
        amount: '500000',
        currency: 'USD',
        safeType: 'post_money',
        valuationCap: '10000000',
        issueDate: '2024-03-01',
      })
      .expect(201);
    await holder.agent
      .post(`/v1/plan/${plan.id}/pool/${plan.pools[0].id}/option/${grant.body.id}/exercise/request`)
      .send({ quantity: '10', date: '2024-07-01' })
      .expect(201);
    await holder.agent
      .post(`/v1/organization/${org.id}/action`)
      .send({ type: 'note.written', description: 'A note for everyone' })
      .expect(201);
    // Entries derived from events arrive through the queue: wait until the Owner sees them all.
    const all = await eventually(async () => {
      const entries = await log(owner.agent, org.id);
      for (const [type, n] of Object.entries(EXPECTED_COUNTS)) {
        const seen = entries.filter((e) => e.type === type).length;
        if (seen < n) throw new Error(`${type}: ${seen} of ${n}`);
      }
      return entries;
    });
    return { owner, admin, editor, viewer, holder, observer, bob, org, own, bobs, grant, all };
  }

  it('each role of the organization gets the entry types its permissions read, and its own', async () => {
    const w = await world();
    const everything = typesOf(w.all);
    expect(everything).toEqual(
      expect.arrayContaining([
        ...Object.keys(EXPECTED_COUNTS),
        'member.added',
        'member.invited',
        'member.updated',
      ]),
    );
    // Owner, Admin, Editor and Viewer read every record: all of it.
    for (const reader of [w.admin, w.editor, w.viewer]) {
      expect((await log(reader.agent, w.org.id)).map((e) => e.id)).toEqual(w.all.map((e) => e.id));
    }

    // Only canViewOrganization: the organization's structure, written notes, and their own records.
    const orgWide = [
      'note.written',
      'organization.created',
      'plan.created',
      'role.created',
      'security.created',
    ];
    const observer = await log(w.observer.agent, w.org.id);
    expect(typesOf(observer)).toEqual([...orgWide, 'member.invited', 'member.updated'].sort());
    expect(observer.filter((e) => e.type.startsWith('member.')).map((e) => objectOf(e).id)).toEqual(
      observer.filter((e) => e.type.startsWith('member.')).map(() => w.observer.member.id),
    );

    const holder = await log(w.holder.agent, w.org.id);
    expect(typesOf(holder)).toEqual(
      [
        ...orgWide,
        'member.invited',
        'member.updated',
        'shareholding.created',
        'holding.created',
        'option.exercise_requested',
      ].sort(),
    );
    for (const e of holder.filter((x) => x.type.startsWith('member.'))) {
      expect(objectOf(e).id).toBe(w.holder.member.id);
    }
    for (const e of holder.filter((x) => /^(shareholding|holding)\./.test(x.type))) {
      expect(objectOf(e).member).toBe(w.holder.member.id);
    }
    expect(holder.find((e) => e.type === 'option.exercise_requested')).toBeDefined();
    // What a Shareholder never reads: others' holdings, the 409A price, legends, others' members.
    const text = JSON.stringify(holder);
    expect(text).not.toContain(w.bobs.id);
    expect(text).not.toContain(w.bob.id);
    expect(text).not.toContain('3.2175');
    expect(text).not.toContain('Restricted securities');
  });

  it('a Shareholder sees their own shareholding.created and nobody else’s, whatever the ?type= prefix', async () => {
    const w = await world();
    const owners = await log(w.owner.agent, w.org.id, { type: 'shareholding.' });
    expect(owners.filter((e) => e.type === 'shareholding.created')).toHaveLength(2);
    for (const type of ['shareholding.', 'shareholding.created', 'shareholding', 'sh']) {
      const seen = await log(w.holder.agent, w.org.id, { type });
      expect(seen.map((e) => [e.type, objectOf(e).id])).toEqual([
        ['shareholding.created', w.own.id],
      ]);
    }
    for (const type of ['member.', 'valuation.', 'holding.', 'legend.']) {
      const seen = await log(w.holder.agent, w.org.id, { type });
      const foreign = seen.filter(
        (e) => objectOf(e).member !== w.holder.member.id && objectOf(e).id !== w.holder.member.id,
      );
      expect({ type, foreign }).toEqual({ type, foreign: [] });
    }
    expect(await log(w.holder.agent, w.org.id, { type: 'valuation.' })).toEqual([]);
    const grants = await log(w.holder.agent, w.org.id, { type: 'holding.' });
    expect(grants.map((e) => objectOf(e).id)).toEqual([w.grant.body.id]);
    // `limit` counts what the reader may see: the newest visible entry, not an empty page.
    const one = await log(w.holder.agent, w.org.id, { limit: 1, type: 'shareholding.' });
    expect(one.map((e) => objectOf(e).id)).toEqual([w.own.id]);
  });

  it('an entry the reader may not see is no cursor for them', async () => {
    const w = await world();
    const valuation = w.all.find((e) => e.type === 'valuation.created')!;
    await w.owner.agent
      .get(`/v1/organization/${w.org.id}/action`)
      .query({ before: valuation.id })
      .expect(200);
    await w.holder.agent
      .get(`/v1/organization/${w.org.id}/action`)
      .query({ before: valuation.id })
      .expect(400);
  });
});
