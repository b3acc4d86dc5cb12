import { randomUUID } from 'node:crypto';
import type { Agent } from 'supertest';
import { vestedAsOf, vestingEvents } from '../../../libs/cap-math';
import { LedgerWriter } from '../../../src/cap-table/ledger/ledger-writer';
import { coherentPackage, IDS, packageZip, PackageFiles } from '../../fixtures/ocf/ocf-packages';
import { createTestApp, TestApp } from '../../support/app';
import { createSecurity, issue } from '../../support/cap-table';
import { ERROR_BODIES } from '../../support/errors';
import { createHolding, createSchedule, incentiveTable, optionBody } from './holdings-fixtures';
import { ownerWithOrg } from '../../support/world';

type Item = Record<string, unknown>;

// Small enough that a few legend reads fill it.
const QUERY_BUDGET = 100_000;

/** Security review, issue 19: the work and the bytes of one request are bounded. */
describe('request bounds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { QUERY_MAX_RESPONSE_BYTES: String(QUERY_BUDGET) } });
  });
  afterAll(() => t.close());

  const STANDARD = {
    name: 'Standard',
    totalPeriods: 48,
    periodLength: 1,
    periodType: 'months',
    cliffPeriods: 12,
    allocationType: 'CUMULATIVE_ROUNDING',
  };

  const schedules = async (agent: Agent, orgId: string) =>
    (await agent.get(`/v1/vestingSchedule?organization=${orgId}&versions=all`).expect(200))
      .body as { id: string; version: number; totalPeriods: number }[];

  describe('vesting schedules: totalPeriods bounded by what a real grant needs', () => {
    it('refuses a schedule of 10,000 monthly periods (400 naming totalPeriods) and creates nothing', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const res = await owner.agent
        .post('/v1/vestingSchedule')
        .send({ organization: org.id, ...STANDARD, totalPeriods: 10_000 })
        .expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        message: 'totalPeriods must be at most 600 for months periods (got 10000)',
      });
      expect(await schedules(owner.agent, org.id)).toEqual([]);
    });

    it.each([
      ['months', 600],
      ['years', 50],
      ['days', 3650],
    ])('takes %s up to %i periods and refuses one more', async (periodType, max) => {
      const { owner, org } = await ownerWithOrg(t);
      const body = { organization: org.id, ...STANDARD, periodType, cliffPeriods: 0 };
      const ok = await owner.agent
        .post('/v1/vestingSchedule')
        .send({ ...body, totalPeriods: max })
        .expect(201);
      expect(ok.body).toMatchObject({ totalPeriods: max, periodType });
      const refused = await owner.agent
        .post('/v1/vestingSchedule')
        .send({ ...body, totalPeriods: max + 1 })
        .expect(400);
      expect(refused.body.message).toBe(
        `totalPeriods must be at most ${max} for ${periodType} periods (got ${max + 1})`,
      );
      expect((await schedules(owner.agent, org.id)).map((s) => s.totalPeriods)).toEqual([max]);
    });

    it('refuses a new version (PUT) of 10,000 periods and keeps the current one', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const current = await createSchedule(owner.agent, org.id);
      const res = await owner.agent
        .put(`/v1/vestingSchedule/${current.id}`)
        .send({ organization: org.id, ...STANDARD, totalPeriods: 10_000 })
        .expect(400);
      expect(res.body.message).toContain('totalPeriods must be at most 600');
      expect(await schedules(owner.agent, org.id)).toEqual([
        expect.objectContaining({ id: current.id, version: 1, totalPeriods: 48 }),
      ]);
      // A change within the bound is a new version as before.
      await owner.agent
        .put(`/v1/vestingSchedule/${current.id}`)
        .send({ organization: org.id, ...STANDARD, totalPeriods: 600, cliffPeriods: 0 })
        .expect(200);
    });

    it('refuses to project an inline schedule of 10,000 periods (400 naming schedule.totalPeriods)', async () => {
      const { owner } = await ownerWithOrg(t);
      const body = { quantity: '4800', vestingStartDate: '2024-01-15' };
      const res = await owner.agent
        .post('/v1/schedule/project')
        .send({ ...body, schedule: { ...STANDARD, name: undefined, totalPeriods: 10_000 } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(
        'schedule.totalPeriods must be at most 600 for months periods (got 10000)',
      );
      const ok = await owner.agent
        .post('/v1/schedule/project')
        .send({ ...body, schedule: { ...STANDARD, name: undefined, totalPeriods: 600 } })
        .expect(200);
      expect(ok.body.events).toHaveLength(589);
    });

    /** A schedule recorded before the bound (or by an older import): 10,000 monthly periods. */
    async function legacySchedule(orgId: string, userId: string) {
      const id = randomUUID();
      await t.get<LedgerWriter>(LedgerWriter).change(orgId, userId, {}, async (c) => {
        await c.apply('VESTING_TERMS_CREATED', '2024-01-01', {
          vestingSchedule: {
            id,
            name: 'Legacy',
            planId: null,
            version: 1,
            previousVersionId: null,
            totalPeriods: 10_000,
            periodLength: 1,
            periodType: 'months',
            cliffPeriods: 12,
            allocationType: 'CUMULATIVE_ROUNDING',
            vestingDayOfMonth: null,
            acceleration: null,
          },
        });
      });
      return id;
    }

    it('refuses to project a stored schedule over the bound (400 naming vestingSchedule)', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const legacy = await legacySchedule(org.id, owner.user.id);
      const res = await owner.agent
        .post('/v1/schedule/project')
        .send({ quantity: '4800', vestingStartDate: '2024-01-15', vestingSchedule: legacy })
        .expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        message: 'vestingSchedule: totalPeriods must be at most 600 for months periods (got 10000)',
        field: 'vestingSchedule',
      });
    });

    it('still shows the vested quantity of grants on a stored schedule over the bound, as the expansion computes it', async () => {
      const x = await incentiveTable(t);
      const legacy = await legacySchedule(x.org.id, x.owner.user.id);
      const grant = await createHolding(
        x.owner.agent,
        optionBody(x, { quantity: '48000', grantDate: '2019-01-31', vestingSchedule: legacy }),
      );
      const today = new Date().toISOString().slice(0, 10);
      const expected = vestedAsOf(
        vestingEvents(
          {
            totalPeriods: 10_000,
            periodLength: 1,
            periodType: 'months',
            cliffPeriods: 12,
            allocationType: 'CUMULATIVE_ROUNDING',
          },
          '48000',
          '2019-01-31',
        ),
        today,
      ).toFixed();
      expect(Number(expected)).toBeGreaterThan(0);
      const list = await x.owner.agent.get(`/v1/organization/${x.org.id}/option`).expect(200);
      expect(list.body).toEqual([
        expect.objectContaining({ id: grant.id, vested: expected, exercisable: expected }),
      ]);
      const one = await x.owner.agent.get(`/v1/option/${grant.id}`).expect(200);
      expect(one.body).toMatchObject({ vested: expected, exercisable: expected });
    });
  });

  describe('POST /v1/query: JSON reads only, within a byte budget', () => {
    async function capTable() {
      const { owner, org } = await ownerWithOrg(t);
      const security = await createSecurity(owner.agent, org.id);
      const member = (
        await owner.agent.post(`/v1/organization/${org.id}/member`).send({ name: 'Hal' })
      ).body as { id: string };
      const shareholding = await issue(owner.agent, org.id, {
        member: member.id,
        security: security.id,
        quantity: '700',
      });
      const legend = (
        await owner.agent
          .post(`/v1/organization/${org.id}/legend`)
          .send({ name: 'Long', text: 'L'.repeat(20_000) })
          .expect(201)
      ).body as { id: string };
      return { owner, org, security, shareholding, legend };
    }
    let s: Awaited<ReturnType<typeof capTable>>;
    beforeAll(async () => {
      s = await capTable();
    });

    const query = (agent: Agent, queries: { id: string; path: string }[]) =>
      agent.post('/v1/query').send({ queries });

    it('refuses a sub-read of a download or export (CSV, OCF zip, certificate PDF, file content): 400, nothing answered', async () => {
      const org = s.org.id;
      const downloads = [
        `/v1/organization/${org}/captable`,
        `/v1/organization/${org}/captable?format=json`,
        `/v1/Organization/${org}/CAPTABLE/`,
        `/v1/organization/${org}/import`,
        `/v1/organization/${org}/ocf`,
        `/v1/shareholding/${s.shareholding.id}/certificate`,
        `/v1/shareholding/${s.shareholding.id}/certificate/copy`,
        `/v1/organization/${org}/legend/${s.legend.id}/certificate`,
        `/v1/file/${randomUUID()}/content`,
        `/v1/file/${randomUUID()}/content/name.pdf`,
        `/v1/organization/${org}/document/${randomUUID()}/content`,
        '/v1/site/captable',
      ];
      for (const path of downloads) {
        const res = await query(s.owner.agent, [
          { id: 'fine', path: `/v1/organization/${org}` },
          { id: 'download', path },
        ]);
        expect([path, res.status, res.body]).toEqual([
          path,
          400,
          {
            error: 'Bad Request',
            message: 'queries: download reads a download or export, not JSON: ask for it alone',
            field: 'queries',
          },
        ]);
      }
    });

    it('answers JSON reads as before, the legend list and the dashboard among them', async () => {
      const org = s.org.id;
      const res = await query(s.owner.agent, [
        { id: 'legends', path: `/v1/organization/${org}/legend` },
        { id: 'dashboard', path: `/v1/captable/${org}/dashboard` },
        { id: 'missing', path: `/v1/shareholding/${randomUUID()}` },
        { id: 'no-route', path: '/v1/no/such/route' },
      ]).expect(200);
      expect(res.body.results.legends).toMatchObject({
        status: 200,
        body: [{ id: s.legend.id, text: 'L'.repeat(20_000) }],
      });
      expect(res.body.results.dashboard).toMatchObject({ status: 200, body: { issued: '700' } });
      expect(res.body.results.missing).toEqual({ status: 404, body: ERROR_BODIES[404] });
      expect(res.body.results['no-route']).toEqual({ status: 404, body: ERROR_BODIES[404] });
    });

    it('answers 413 queryResponseTooLarge when the answers add up to more than QUERY_MAX_RESPONSE_BYTES', async () => {
      const path = `/v1/organization/${s.org.id}/legend/${s.legend.id}`;
      const single = await s.owner.agent.get(path).expect(200);
      const size = Buffer.byteLength(single.text);
      const fit = Math.floor(QUERY_BUDGET / size);
      expect(fit).toBeGreaterThanOrEqual(2);
      expect(fit).toBeLessThan(20);
      const reads = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, path }));
      const within = await query(s.owner.agent, reads(fit)).expect(200);
      expect(Object.keys(within.body.results)).toHaveLength(fit);
      const over = await query(s.owner.agent, reads(fit + 1)).expect(413);
      expect(over.body).toEqual({
        error: 'Payload Too Large',
        key: 'queryResponseTooLarge',
        message: `the answers of this query exceed ${QUERY_BUDGET} bytes: ask for fewer or smaller reads`,
      });
      const twenty = await query(s.owner.agent, reads(20)).expect(413);
      expect(twenty.body.key).toBe('queryResponseTooLarge');
    });
  });

  describe('legend texts', () => {
    it('refuses a legend text over 20,000 characters on create and PATCH (400), and a 1 MB body (413)', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const legends = `/v1/organization/${org.id}/legend`;
      const created = await owner.agent
        .post(legends)
        .send({ name: 'Longest', text: 't'.repeat(20_000) })
        .expect(201);
      const tooLong = await owner.agent
        .post(legends)
        .send({ name: 'Too long', text: 't'.repeat(20_001) })
        .expect(400);
      expect(tooLong.body.message).toContain('text');
      await owner.agent
        .patch(`${legends}/${created.body.id}`)
        .send({ text: 't'.repeat(100_000) })
        .expect(400);
      await owner.agent
        .post(legends)
        .send({ name: 'Megabyte', text: 't'.repeat(1024 * 1024) })
        .expect(413);
      const list = await owner.agent.get(legends).expect(200);
      expect(list.body.map((l: { text: string }) => l.text.length)).toEqual([20_000]);
    });
  });

  describe('OCF import: the same bounds, as problems of the file', () => {
    const upload = async (agent: Agent, orgId: string, files: PackageFiles) =>
      agent
        .post(`/v1/organization/${orgId}/ocf`)
        .attach('file', await packageZip(files), 'package.zip');

    const withItems = (files: PackageFiles, name: string, change: (items: Item[]) => Item[]) => {
      const file = files[name] as { items: Item[] };
      return { ...files, [name]: { ...file, items: change(file.items) } };
    };

    it('refuses a legend template with a 1 MB text (400, the text named), and imports nothing', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const files = withItems(coherentPackage(), 'StockLegends.ocf.json', (items) =>
        items.map((l) => (l.id === IDS.legend ? { ...l, text: 'x'.repeat(1024 * 1024) } : l)),
      );
      const res = await upload(owner.agent, org.id, files);
      expect(res.status).toBe(400);
      expect(res.body.problems).toContainEqual({
        file: 'StockLegends.ocf.json',
        path: '/items/0/text',
        reason: 'the legend text has 1048576 characters, more than 20000',
      });
      await owner.agent.get(`/v1/organization/${org.id}/legend`).expect(200, []);
    });

    it('refuses vesting terms of 10,000 monthly periods (400, the terms named), and imports nothing', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const long = (v: Item): Item => ({
        ...v,
        id: 'ten-thousand-months',
        vesting_conditions: (v.vesting_conditions as Item[]).map((c) => {
          if (c.id !== 'monthly-thereafter') return c;
          const trigger = c.trigger as Item;
          return {
            ...c,
            trigger: { ...trigger, period: { ...(trigger.period as Item), occurrences: 9_988 } },
          };
        }),
      });
      const files = withItems(coherentPackage(), 'VestingTerms.ocf.json', (items) => [
        ...items,
        long(items.find((v) => v.id === IDS.schedule)!),
      ]);
      const res = await upload(owner.agent, org.id, files);
      expect(res.status).toBe(400);
      expect(res.body.problems).toEqual([
        {
          file: 'VestingTerms.ocf.json',
          path: '/items/2/vesting_conditions',
          reason: 'totalPeriods must be at most 600 for months periods (got 10000)',
        },
      ]);
      expect(await schedules(owner.agent, org.id)).toEqual([]);
    });

    it('imports the coherent package, its legend and schedule, as before', async () => {
      const { owner, org } = await ownerWithOrg(t);
      const res = await upload(owner.agent, org.id, coherentPackage());
      expect(res.status).toBe(201);
      expect((await schedules(owner.agent, org.id)).map((v) => v.totalPeriods)).toEqual([48]);
    });
  });
});
