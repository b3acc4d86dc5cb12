import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { CapitalChange } from '../../../src/cap-table/capital-changes/capital-change.entity';
import { EquityTransaction } from '../../../src/cap-table/ledger/equity-transaction.entity';
import { LedgerVerifier } from '../../../src/cap-table/ledger/ledger-verifier';
import { OutboxEvent } from '../../../src/events/outbox-event.entity';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder } from '../../support/cap-table';
import { errorBody } from '../../support/errors';
import { eventually } from '../../support/eventually';
import { joinByInvitation, memberAgent, OrgFixture } from '../../support/orgs';
import { ownerWithOrg } from '../../support/world';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN = '6f1c1d1e-0000-4000-8000-000000000000';

interface CapitalChangeBody {
  id: string;
  organization: string;
  member: string;
  entity: string;
  date: string;
  amount: string;
  currency: string;
  type: 'contribution' | 'distribution';
  description: string | null;
  created: string;
  updated: string;
}

describe('capital changes', () => {
  let t: TestApp;
  let ds: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    ds = t.get<DataSource>(DataSource);
  });
  afterAll(() => t.close());

  const path = (entity: string) => `/v1/entity/${entity}/capitalChange`;

  /** An owner, an organization and a member without an account (with an entity of its own). */
  async function company(name = 'Capital LLC') {
    const { owner, org } = await ownerWithOrg(t, name);
    const holder = await createHolder(owner.agent, org.id, 'Investor One');
    return { owner, org, holder };
  }

  async function contribute(
    agent: Agent,
    org: OrgFixture,
    holder: { id: string; entity: string },
    fields: Record<string, unknown> = {},
  ) {
    const res = await agent.post(path(holder.entity)).send({
      organization: org.id,
      member: holder.id,
      date: '2024-01-15',
      amount: '25000',
      currency: 'USD',
      type: 'contribution',
      ...fields,
    });
    if (res.status !== 201)
      throw new Error(`capital change: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as CapitalChangeBody;
  }

  /** The stored state of an organization's capital changes, the log and the events: what a refusal leaves alone. */
  async function snapshot(orgId: string) {
    const rows = await ds.getRepository(CapitalChange).find({
      where: { organizationId: orgId },
      order: { id: 'ASC' },
    });
    const log = await ds.getRepository(EquityTransaction).countBy({ organizationId: orgId });
    const events = await ds
      .getRepository(OutboxEvent)
      .createQueryBuilder('e')
      .where('e.organization_id = :orgId AND e.type LIKE :type', {
        orgId,
        type: 'capital_change.%',
      })
      .getCount();
    return { rows, log, events };
  }

  const stored = (id: string) => ds.getRepository(CapitalChange).findOneByOrFail({ id });

  const logRows = (organizationId: string) =>
    ds.getRepository(EquityTransaction).find({
      where: { organizationId },
      order: { sequence: 'ASC' },
    });

  describe('POST /v1/entity/:entity/capitalChange', () => {
    it('records a contribution: 201 with every field, decimals canonical, dates YYYY-MM-DD', async () => {
      const { owner, org, holder } = await company();
      const res = await owner.agent
        .post(path(holder.entity))
        .send({
          organization: org.id,
          member: holder.id,
          date: '2024-02-29',
          amount: '25000.50',
          currency: ' eur ',
          type: 'contribution',
          description: 'Initial capital contribution',
        })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        organization: org.id,
        member: holder.id,
        entity: holder.entity,
        date: '2024-02-29',
        amount: '25000.5',
        currency: 'EUR',
        type: 'contribution',
        description: 'Initial capital contribution',
        created: expect.stringMatching(ISO_TIME),
        updated: expect.stringMatching(ISO_TIME),
      });
      expect(await stored(res.body.id)).toMatchObject({
        organizationId: org.id,
        memberId: holder.id,
        entityId: holder.entity,
        date: '2024-02-29',
        amount: '25000.5000000000',
        currency: 'EUR',
        type: 'contribution',
        description: 'Initial capital contribution',
      });
    });

    it('records a distribution; a JSON number amount is exact and the description optional', async () => {
      const { owner, org, holder } = await company();
      const res = await owner.agent
        .post(path(holder.entity))
        .send({
          organization: org.id,
          member: holder.id,
          date: '2024-12-31',
          amount: 1234.56,
          currency: 'USD',
          type: 'distribution',
        })
        .expect(201);
      expect(res.body).toMatchObject({
        amount: '1234.56',
        type: 'distribution',
        description: null,
        currency: 'USD',
      });
      const exact = await contribute(owner.agent, org, holder, {
        amount: '1234567890123456789012345678.0000000001',
      });
      expect(exact.amount).toBe('1234567890123456789012345678.0000000001');
      const none = await contribute(owner.agent, org, holder, { description: null });
      expect(none.description).toBeNull();
    });

    it('appends a CAPITAL_CHANGE_RECORDED transaction and a capital_change.created event', async () => {
      const { owner, org, holder } = await company('Logged LLC');
      const before = (await logRows(org.id)).length;
      const c = await contribute(owner.agent, org, holder, { date: '2024-03-01', amount: '10.10' });
      const rows = await logRows(org.id);
      expect(rows).toHaveLength(before + 1);
      expect(rows[rows.length - 1]).toMatchObject({
        type: 'CAPITAL_CHANGE_RECORDED',
        effectiveDate: '2024-03-01',
        actorUserId: owner.user.id,
        payload: {
          capitalChange: {
            id: c.id,
            memberId: holder.id,
            entityId: holder.entity,
            date: '2024-03-01',
            amount: '10.1',
            currency: 'USD',
            type: 'contribution',
            description: null,
          },
        },
      });
      const events = await ds
        .getRepository(OutboxEvent)
        .findBy({ organizationId: org.id, type: 'capital_change.created' });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        actorUserId: owner.user.id,
        data: { object: c, previous_attributes: {} },
      });
      const entry = await eventually(async () => {
        const res = await owner.agent.get(`/v1/organization/${org.id}/action`).expect(200);
        return (res.body as { type: string; description: string }[]).find(
          (a) => a.type === 'capital_change.created',
        );
      });
      expect(entry!.description).toBe(
        'capital contribution of 10.1 USD by Investor One on 2024-03-01',
      );
    });

    it('refuses invalid bodies with 400 in the spec format and records nothing', async () => {
      const { owner, org, holder } = await company();
      const valid = {
        organization: org.id,
        member: holder.id,
        date: '2024-01-15',
        amount: '100',
        currency: 'USD',
        type: 'contribution',
      };
      const before = await snapshot(org.id);
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ type: 'gift' }, /type/],
        [{ type: 'Contribution' }, /type/],
        [{ amount: '-5' }, /amount/],
        [{ amount: -5 }, /amount/],
        [{ amount: '0' }, /amount must be more than 0/],
        [{ amount: 'lots' }, /amount/],
        [{ amount: '1.12345678901' }, /amount/],
        [{ currency: 'ZZZ' }, /currency/],
        [{ currency: 'dollars' }, /currency/],
        [{ date: '2024-02-30' }, /date must be a date YYYY-MM-DD/],
        [{ date: '2023-02-29' }, /date/],
        [{ date: '15/01/2024' }, /date/],
        [{ date: '2024-01-15T10:00:00Z' }, /date/],
        [{ date: '0000-01-01' }, /date/],
        [{ description: 'd'.repeat(2001) }, /description/],
        [{ description: 7 }, /description/],
        [{ member: 'someone' }, /member must be a UUID/],
      ];
      for (const [change, message] of cases) {
        const res = await owner.agent.post(path(holder.entity)).send({ ...valid, ...change });
        expect({ change, status: res.status }).toEqual({ change, status: 400 });
        expect(res.body).toEqual({ error: 'Bad Request', message: expect.stringMatching(message) });
      }
      for (const field of ['date', 'amount', 'currency', 'type']) {
        const body: Record<string, unknown> = { ...valid };
        delete body[field];
        const res = await owner.agent.post(path(holder.entity)).send(body).expect(400);
        expect(res.body).toEqual({
          error: 'Bad Request',
          key: 'invalidFields',
          message: expect.stringContaining(`${field} is required`),
        });
      }
      await owner.agent
        .post(path(holder.entity))
        .send({ ...valid, organization: undefined })
        .expect(400)
        .expect(({ body }) => expect(body).toMatchObject({ key: 'invalidFields' }));
      await owner.agent.post(path('not-a-uuid')).send(valid).expect(400);
      expect(await snapshot(org.id)).toEqual(before);
    });

    it('refuses a member that is not the entity’s (400 naming member) and records nothing', async () => {
      const { owner, org, holder } = await company();
      const second = await createHolder(owner.agent, org.id, 'Investor Two');
      const before = await snapshot(org.id);
      const res = await owner.agent
        .post(path(holder.entity))
        .send({
          organization: org.id,
          member: second.id,
          date: '2024-01-15',
          amount: '100',
          currency: 'USD',
          type: 'contribution',
        })
        .expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        message: 'member is not the member of this entity',
        field: 'member',
      });
      expect(await snapshot(org.id)).toEqual(before);
    });

    it('answers 404 for an entity that is no member’s of the organization, an unknown member or a removed one', async () => {
      const { owner, org, holder } = await company();
      const gone = await createHolder(owner.agent, org.id, 'Gone');
      await owner.agent.delete(`/v1/organization/${org.id}/member/${gone.id}`).expect(200);
      const before = await snapshot(org.id);
      const body = {
        organization: org.id,
        date: '2024-01-15',
        amount: '100',
        currency: 'USD',
        type: 'contribution',
      };
      // The organization's own entity is not a member's.
      await owner.agent
        .post(path(org.entity))
        .send({ ...body, member: holder.id })
        .expect(404)
        .expect(errorBody(404));
      await owner.agent
        .post(path(UNKNOWN))
        .send({ ...body, member: holder.id })
        .expect(404)
        .expect(errorBody(404));
      await owner.agent
        .post(path(holder.entity))
        .send({ ...body, member: UNKNOWN })
        .expect(404)
        .expect(errorBody(404));
      await owner.agent
        .post(path(gone.entity))
        .send({ ...body, member: gone.id })
        .expect(404)
        .expect(errorBody(404));
      await owner.agent
        .post(path(holder.entity))
        .send({ ...body, organization: UNKNOWN, member: holder.id })
        .expect(404);
      expect(await snapshot(org.id)).toEqual(before);
    });
  });

  describe('PATCH /v1/entity/:entity/capitalChange', () => {
    it('edits the change named by id: 200 with the new values, same id and created', async () => {
      const { owner, org, holder } = await company();
      const c = await contribute(owner.agent, org, holder, { description: 'Seed' });
      const res = await owner.agent
        .patch(path(holder.entity))
        .send({ organization: org.id, id: c.id, amount: '30000.00', currency: 'gbp' })
        .expect(200);
      expect(res.body).toEqual({
        ...c,
        amount: '30000',
        currency: 'GBP',
        updated: expect.stringMatching(ISO_TIME),
      });
      expect(await stored(c.id)).toMatchObject({ amount: '30000.0000000000', currency: 'GBP' });

      const again = await owner.agent
        .patch(path(holder.entity))
        .send({
          organization: org.id,
          id: c.id,
          date: '2024-06-30',
          type: 'distribution',
          description: null,
        })
        .expect(200);
      expect(again.body).toEqual({
        ...res.body,
        date: '2024-06-30',
        type: 'distribution',
        description: null,
        updated: expect.stringMatching(ISO_TIME),
      });
      // Fields left out stay as they were.
      const kept = await owner.agent
        .patch(path(holder.entity))
        .send({ organization: org.id, id: c.id, description: 'Returned capital' })
        .expect(200);
      expect(kept.body).toMatchObject({
        amount: '30000',
        currency: 'GBP',
        date: '2024-06-30',
        type: 'distribution',
        description: 'Returned capital',
      });
    });

    it('logs a CAPITAL_CHANGE_AMENDED with only the changes, and a capital_change.updated event', async () => {
      const { owner, org, holder } = await company();
      const c = await contribute(owner.agent, org, holder, { amount: '100' });
      const before = (await logRows(org.id)).length;
      const res = await owner.agent
        .patch(path(holder.entity))
        .send({
          organization: org.id,
          id: c.id,
          amount: '150',
          currency: 'USD',
          date: '2024-02-01',
        })
        .expect(200);
      const rows = await logRows(org.id);
      expect(rows).toHaveLength(before + 1);
      const row = rows[rows.length - 1];
      expect(row).toMatchObject({
        type: 'CAPITAL_CHANGE_AMENDED',
        effectiveDate: '2024-02-01',
        actorUserId: owner.user.id,
        payload: { capitalChangeId: c.id, changes: { amount: '150', date: '2024-02-01' } },
      });
      expect(Object.keys(row.payload.changes as object).sort()).toEqual(['amount', 'date']);
      const events = await ds
        .getRepository(OutboxEvent)
        .findBy({ organizationId: org.id, type: 'capital_change.updated' });
      expect(events).toHaveLength(1);
      expect(events[0].data).toEqual({
        object: res.body,
        previous_attributes: { amount: '100', date: '2024-01-15' },
      });
    });

    it('an edit that changes nothing answers 200 and records nothing', async () => {
      const { owner, org, holder } = await company();
      const c = await contribute(owner.agent, org, holder, { amount: '100.5' });
      const before = await snapshot(org.id);
      const res = await owner.agent
        .patch(path(holder.entity))
        .send({
          organization: org.id,
          id: c.id,
          amount: '100.50',
          currency: 'usd',
          type: 'contribution',
        })
        .expect(200);
      expect(res.body).toEqual(c);
      await owner.agent
        .patch(path(holder.entity))
        .send({ organization: org.id, id: c.id })
        .expect(200)
        .expect(({ body }) => expect(body).toEqual(c));
      expect(await snapshot(org.id)).toEqual(before);
    });

    it('refuses invalid edits with 400, null for a required field included, and changes nothing', async () => {
      const { owner, org, holder } = await company();
      const c = await contribute(owner.agent, org, holder);
      const before = await snapshot(org.id);
      const cases: Record<string, unknown>[] = [
        { type: 'gift' },
        { amount: '-1' },
        { amount: '0' },
        { currency: 'XYZ1' },
        { date: '2024-02-30' },
        { description: 5 },
        { date: null },
        { amount: null },
        { currency: null },
        { type: null },
      ];
      for (const change of cases) {
        const res = await owner.agent
          .patch(path(holder.entity))
          .send({ organization: org.id, id: c.id, ...change });
        expect({ change, status: res.status }).toEqual({ change, status: 400 });
        // The message names the field at fault.
        expect(res.body).toEqual({
          error: 'Bad Request',
          message: expect.stringMatching(new RegExp(`^${Object.keys(change)[0]} `)),
        });
      }
      // Without an id there is nothing to edit.
      await owner.agent
        .patch(path(holder.entity))
        .send({ organization: org.id, amount: '5' })
        .expect(400)
        .expect(({ body }) =>
          expect(body).toEqual({
            error: 'Bad Request',
            key: 'invalidFields',
            message: expect.stringContaining('id is required'),
          }),
        );
      await owner.agent
        .patch(path(holder.entity))
        .send({ organization: org.id, id: 'x', amount: '5' })
        .expect(400);
      expect(await snapshot(org.id)).toEqual(before);
    });

    it('answers 404 for an unknown id or a change of another entity of the organization', async () => {
      const { owner, org, holder } = await company();
      const second = await createHolder(owner.agent, org.id, 'Investor Two');
      const c = await contribute(owner.agent, org, holder);
      const before = await snapshot(org.id);
      await owner.agent
        .patch(path(holder.entity))
        .send({ organization: org.id, id: UNKNOWN, amount: '5' })
        .expect(404)
        .expect(errorBody(404));
      await owner.agent
        .patch(path(second.entity))
        .send({ organization: org.id, id: c.id, amount: '5' })
        .expect(404)
        .expect(errorBody(404));
      expect(await snapshot(org.id)).toEqual(before);
    });
  });

  describe('authentication and permissions', () => {
    it('401 without a session', async () => {
      const { owner, org, holder } = await company();
      const c = await contribute(owner.agent, org, holder);
      const before = await snapshot(org.id);
      await t.http
        .post(path(holder.entity))
        .send({
          organization: org.id,
          member: holder.id,
          date: '2024-01-15',
          amount: '1',
          currency: 'USD',
          type: 'contribution',
        })
        .expect(401)
        .expect(errorBody(401));
      await t.http
        .patch(path(holder.entity))
        .send({ organization: org.id, id: c.id, amount: '1' })
        .expect(401)
        .expect(errorBody(401));
      expect(await snapshot(org.id)).toEqual(before);
    });

    it('needs canEdit: Viewer and Shareholder 403, Editor allowed', async () => {
      const { owner, org, holder } = await company();
      const roles = (await owner.agent.get(`/v1/organization/${org.id}/role`).expect(200)).body as {
        name: string;
        permissions: string[];
      }[];
      const perms = (name: string) => roles.find((r) => r.name === name)!.permissions;
      expect(perms('Viewer')).not.toContain('canEdit');
      expect(perms('Shareholder')).not.toContain('canEdit');
      expect(perms('Editor')).toContain('canEdit');

      const c = await contribute(owner.agent, org, holder);
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
      const create = {
        organization: org.id,
        member: holder.id,
        date: '2024-01-15',
        amount: '1',
        currency: 'USD',
        type: 'contribution',
      };
      const before = await snapshot(org.id);
      for (const who of [viewer, shareholder]) {
        await who.agent.post(path(holder.entity)).send(create).expect(403).expect(errorBody(403));
        await who.agent
          .patch(path(holder.entity))
          .send({ organization: org.id, id: c.id, amount: '1' })
          .expect(403)
          .expect(errorBody(403));
      }
      // A Shareholder cannot record money against their own entity either.
      const me = (
        await owner.agent
          .get(`/v1/organization/${org.id}/member/${shareholder.member.id}`)
          .expect(200)
      ).body as { entity: string };
      await shareholder.agent
        .post(path(me.entity))
        .send({ ...create, member: shareholder.member.id })
        .expect(403);
      expect(await snapshot(org.id)).toEqual(before);

      const made = await editor.agent.post(path(holder.entity)).send(create).expect(201);
      await editor.agent
        .patch(path(holder.entity))
        .send({ organization: org.id, id: made.body.id, amount: '2' })
        .expect(200)
        .expect(({ body }) => expect(body.amount).toBe('2'));
      const rows = await logRows(org.id);
      expect(rows.slice(-2).map((r) => [r.type, r.actorUserId])).toEqual([
        ['CAPITAL_CHANGE_RECORDED', editor.user.id],
        ['CAPITAL_CHANGE_AMENDED', editor.user.id],
      ]);
    });

    it('checks canEdit itself, not canEditCapTable (custom roles)', async () => {
      const { owner, org, holder } = await company();
      const role = async (name: string, permissions: string[]) =>
        (
          await owner.agent
            .post(`/v1/organization/${org.id}/role`)
            .send({ name, permissions })
            .expect(201)
        ).body.id as string;
      const capTable = await memberAgent(
        t,
        owner.agent,
        org.id,
        await role('Cap table', ['canEditCapTable', 'canViewCapTable']),
      );
      const editOnly = await memberAgent(t, owner.agent, org.id, await role('Edit', ['canEdit']));
      const create = {
        organization: org.id,
        member: holder.id,
        date: '2024-01-15',
        amount: '1',
        currency: 'USD',
        type: 'contribution',
      };
      await capTable.agent.post(path(holder.entity)).send(create).expect(403);
      await editOnly.agent.post(path(holder.entity)).send(create).expect(201);
    });
  });

  describe('another organization', () => {
    it('cannot record or edit capital changes of another organization’s entities', async () => {
      const a = await company('A LLC');
      const b = await company('B LLC');
      const ca = await contribute(a.owner.agent, a.org, a.holder, { amount: '100' });
      const cb = await contribute(b.owner.agent, b.org, b.holder, { amount: '200' });
      const beforeA = await snapshot(a.org.id);
      const beforeB = await snapshot(b.org.id);
      const fields = { date: '2024-01-15', amount: '1', currency: 'USD', type: 'contribution' };

      // B's owner, naming A: not a member of A.
      await b.owner.agent
        .post(path(a.holder.entity))
        .send({ ...fields, organization: a.org.id, member: a.holder.id })
        .expect(403)
        .expect(errorBody(403));
      await b.owner.agent
        .patch(path(a.holder.entity))
        .send({ organization: a.org.id, id: ca.id, amount: '1' })
        .expect(403);
      // B's owner, naming B with A's entity, member or change: not records of B.
      await b.owner.agent
        .post(path(a.holder.entity))
        .send({ ...fields, organization: b.org.id, member: a.holder.id })
        .expect(404)
        .expect(errorBody(404));
      await b.owner.agent
        .post(path(b.holder.entity))
        .send({ ...fields, organization: b.org.id, member: a.holder.id })
        .expect(404);
      await b.owner.agent
        .post(path(a.holder.entity))
        .send({ ...fields, organization: b.org.id, member: b.holder.id })
        .expect(404);
      await b.owner.agent
        .patch(path(a.holder.entity))
        .send({ organization: b.org.id, id: ca.id, amount: '1' })
        .expect(404);
      await b.owner.agent
        .patch(path(b.holder.entity))
        .send({ organization: b.org.id, id: ca.id, amount: '1' })
        .expect(404)
        .expect(errorBody(404));
      // A's owner cannot reach B's change through A's entity either.
      await a.owner.agent
        .patch(path(a.holder.entity))
        .send({ organization: a.org.id, id: cb.id, amount: '1' })
        .expect(404);

      expect(await snapshot(a.org.id)).toEqual(beforeA);
      expect(await snapshot(b.org.id)).toEqual(beforeB);
      expect(await stored(ca.id)).toMatchObject({ amount: '100.0000000000' });
      expect(await stored(cb.id)).toMatchObject({ amount: '200.0000000000' });
    });

    it('a person in both organizations (one entity) is recorded per organization, never across', async () => {
      const a = await company('A LLC');
      const b = await company('B LLC');
      const person = await memberAgent(t, a.owner.agent, a.org.id, 'Shareholder');
      const inB = await joinByInvitation(
        b.owner.agent,
        b.org.id,
        person.agent,
        person.email,
        'Shareholder',
      );
      const memberOf = async (agent: Agent, orgId: string, id: string) =>
        (await agent.get(`/v1/organization/${orgId}/member/${id}`).expect(200)).body as {
          id: string;
          entity: string;
        };
      const inA = await memberOf(a.owner.agent, a.org.id, person.member.id);
      const inBView = await memberOf(b.owner.agent, b.org.id, inB.id);
      expect(inA.entity).toBe(inBView.entity);
      const entity = inA.entity;
      const fields = { date: '2024-01-15', amount: '10', currency: 'USD', type: 'contribution' };

      const beforeA = await snapshot(a.org.id);
      const beforeB = await snapshot(b.org.id);
      // A's owner names A but the person's membership of B.
      await a.owner.agent
        .post(path(entity))
        .send({ ...fields, organization: a.org.id, member: inB.id })
        .expect(404);
      // A's owner names B.
      await a.owner.agent
        .post(path(entity))
        .send({ ...fields, organization: b.org.id, member: inB.id })
        .expect(403);
      expect(await snapshot(a.org.id)).toEqual(beforeA);
      expect(await snapshot(b.org.id)).toEqual(beforeB);

      // Each owner records in their own organization.
      const ca = await contribute(a.owner.agent, a.org, { id: inA.id, entity }, { amount: '10' });
      const cb = await contribute(b.owner.agent, b.org, { id: inB.id, entity }, { amount: '10' });
      expect(ca).toMatchObject({ organization: a.org.id, member: inA.id, entity });
      expect(cb).toMatchObject({ organization: b.org.id, member: inB.id, entity });
      // The same entity path cannot edit the other organization's change.
      await a.owner.agent
        .patch(path(entity))
        .send({ organization: a.org.id, id: cb.id, amount: '99' })
        .expect(404);
      expect(await stored(cb.id)).toMatchObject({ amount: '10.0000000000' });
    });
  });

  it('the log replays to the stored capital changes after a scripted history (ledger:verify)', async () => {
    const { owner, org, holder } = await company();
    const second = await createHolder(owner.agent, org.id, 'Investor Two');
    const c1 = await contribute(owner.agent, org, holder, { amount: '1000' });
    const c2 = await contribute(owner.agent, org, second, { amount: '500', type: 'distribution' });
    const edits: [typeof holder, string, Record<string, unknown>][] = [
      [holder, c1.id, { amount: '1500' }],
      [holder, c1.id, { date: '2024-03-03', description: 'Top-up' }],
      [second, c2.id, { type: 'contribution', currency: 'EUR' }],
      [holder, c1.id, { description: null }],
    ];
    for (const [who, id, change] of edits) {
      await owner.agent
        .patch(path(who.entity))
        .send({ organization: org.id, id, ...change })
        .expect(200);
    }
    const verification = await t.get<LedgerVerifier>(LedgerVerifier).verify(org.id);
    expect(verification).toMatchObject({ transactions: 6, differences: [], moveDifferences: [] });
    expect(verification.replayError).toBeUndefined();
    expect(await stored(c1.id)).toMatchObject({
      amount: '1500.0000000000',
      date: '2024-03-03',
      description: null,
    });
    expect(await stored(c2.id)).toMatchObject({ type: 'contribution', currency: 'EUR' });
  });
});
