import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import type { TestApp } from '../../support/app';
import { memberAgent } from '../../support/orgs';
import { appWithTempStorage } from '../../support/temp-storage';
import {
  createHolding,
  createPlan,
  incentiveTable,
  noteBody,
  optionBody,
} from '../cap-table/holdings-fixtures';
import { pdf } from './upload-fixtures';

/** Which plan and holding an organization file may be linked to together. */
describe('organization files: plan and holding links', () => {
  let t: TestApp;
  let db: DataSource;
  appWithTempStorage((app) => {
    t = app;
    db = app.get(DataSource);
  });

  describe('POST /v1/organization/:organization/file with a plan and a holding', () => {
    const link = (agent: Agent, org: string, fields: Record<string, string>) => {
      let req = agent.post(`/v1/organization/${org}/file`);
      for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
      return req.attach('file', pdf('agreement'), 'agreement.pdf');
    };
    const stored = async (org: string) =>
      Number(
        (
          await db.query('SELECT count(*)::int AS n FROM stored_file WHERE organization_id = $1', [
            org,
          ])
        )[0].n,
      );

    it('refuses a holding of another plan (400 naming holding); nothing is stored or shown', async () => {
      const x = await incentiveTable(t);
      const other = await createPlan(x.owner.agent, x.org.id, x.security.id, {
        name: 'Second plan',
      });
      const grantee = await memberAgent(t, x.owner.agent, x.org.id, 'Shareholder');
      await createHolding(x.owner.agent, optionBody(x, { member: grantee.member.id }));
      const outsider = await createHolding(
        x.owner.agent,
        optionBody(x, { plan: other.id, pool: other.pools[0].id }),
      );
      const before = await stored(x.org.id);
      const res = await link(x.owner.agent, x.org.id, {
        plan: x.plan.id,
        holding: outsider.id,
      }).expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        message: expect.stringMatching(/^holding /),
      });
      expect(await stored(x.org.id)).toBe(before);
      expect((await grantee.agent.get('/v1/incentive/documents').expect(200)).body).toEqual([]);
    });

    it('refuses a holding of no plan with a plan (400)', async () => {
      const x = await incentiveTable(t);
      const note = await createHolding(x.owner.agent, noteBody(x));
      const before = await stored(x.org.id);
      const res = await link(x.owner.agent, x.org.id, {
        plan: x.plan.id,
        holding: note.id,
      }).expect(400);
      expect(res.body.message).toMatch(/^holding /);
      expect(await stored(x.org.id)).toBe(before);
    });

    it('accepts a grant of that very plan, or either link alone', async () => {
      const x = await incentiveTable(t);
      const grant = await createHolding(x.owner.agent, optionBody(x));
      const note = await createHolding(x.owner.agent, noteBody(x));
      const both = await link(x.owner.agent, x.org.id, {
        plan: x.plan.id,
        holding: grant.id,
      }).expect(201);
      expect(both.body).toMatchObject({ plan: x.plan.id, holding: grant.id });
      await link(x.owner.agent, x.org.id, { holding: note.id }).expect(201);
      await link(x.owner.agent, x.org.id, { plan: x.plan.id }).expect(201);
    });
  });
});
