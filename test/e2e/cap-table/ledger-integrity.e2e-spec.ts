import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { cli } from '../../support/cli';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

/** A small deterministic generator, so a failing history can be replayed exactly. */
function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Holding {
  id: string;
  quantity: string;
  status: string;
  security: string;
  member: string;
}

describe('ledger integrity', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.get(DataSource);
  });
  afterAll(() => t.close());

  async function setUp(authorizedShares = '1000000') {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const security = await createSecurity(owner.agent, org.id, { authorizedShares });
    const holders = [];
    for (let i = 0; i < 4; i++)
      holders.push(await createHolder(owner.agent, org.id, `Holder ${i}`));
    return { owner, org, security, holders };
  }

  const holdings = async (agent: Agent, orgId: string): Promise<Holding[]> =>
    (await agent.get(`/v1/organization/${orgId}/shareholding?status=all&limit=1000`).expect(200))
      .body;

  const sum = (hs: Holding[]) =>
    hs.filter((h) => h.status === 'active').reduce((n, h) => n + BigInt(h.quantity), 0n);

  const issuedShares = async (agent: Agent, orgId: string, securityId: string) =>
    (await agent.get(`/v1/organization/${orgId}/security/${securityId}`).expect(200)).body
      .issuedShares as string;

  describe('under concurrency', () => {
    it('50 parallel transfers out of one holding: exactly the feasible ones commit, totals conserved', async () => {
      const { owner, org, security, holders } = await setUp();
      const source = await issue(owner.agent, org.id, {
        member: holders[0].id,
        security: security.id,
        quantity: '1000',
      });
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          owner.agent.post(`/v1/organization/${org.id}/shareholding/transfer`).send({
            shareholding: source.id,
            toMember: holders[1 + (i % 3)].id,
            quantity: '30',
            date: '2024-06-01',
          }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(33);
      expect(statuses.filter((s) => s === 400)).toHaveLength(17);
      for (const refused of answers.filter((a) => a.status === 400))
        expect(refused.body.key).toBe('insufficientShares');

      const after = await holdings(owner.agent, org.id);
      expect(after.find((h) => h.id === source.id)?.quantity).toBe('10');
      expect(after.filter((h) => h.id !== source.id).map((h) => h.quantity)).toEqual(
        Array(33).fill('30'),
      );
      expect(sum(after)).toBe(1000n);
      expect(await issuedShares(owner.agent, org.id, security.id)).toBe('1000');
      // Each committed transfer is one log row; the refused ones left none.
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM equity_transaction WHERE organization_id = $1 AND type = 'TX_STOCK_TRANSFER'`,
        [org.id],
      );
      expect(n).toBe(33);
      // Certificate numbers were handed out once each.
      const numbers = after.map(
        (h) => (h as unknown as { certificateNumber: string }).certificateNumber,
      );
      expect(new Set(numbers).size).toBe(numbers.length);
      const verified = await cli(t, 'ledger:verify', org.id);
      expect(verified).toMatchObject({ code: 0 });
    });

    it('50 parallel issuances never exceed the authorized shares', async () => {
      const { owner, org, security, holders } = await setUp('1000');
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          owner.agent.post(`/v1/organization/${org.id}/shareholding`).send({
            member: holders[i % 4].id,
            security: security.id,
            quantity: '30',
            issueDate: '2024-01-15',
          }),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(33);
      expect(
        answers.filter((a) => a.status === 400 && a.body.key === 'insufficientShares'),
      ).toHaveLength(17);
      expect(await issuedShares(owner.agent, org.id, security.id)).toBe('990');
      expect(sum(await holdings(owner.agent, org.id))).toBe(990n);
      const blocks = (await owner.agent.get(`/v1/organization/${org.id}/block`).expect(200))
        .body as {
        from: string;
        to: string;
      }[];
      // The numbered ranges tile 1..990 without a gap or an overlap.
      let next = 1;
      for (const b of blocks) {
        expect(Number(b.from)).toBe(next);
        next = Number(b.to) + 1;
      }
      expect(next).toBe(991);
    });

    it('voids, transfers and amendments racing on one holding leave a ledger that replays', async () => {
      const { owner, org, security, holders } = await setUp('5000');
      const source = await issue(owner.agent, org.id, {
        member: holders[0].id,
        security: security.id,
        quantity: '1000',
      });
      const work = [
        ...Array.from({ length: 10 }, () =>
          owner.agent.post(`/v1/organization/${org.id}/shareholding/transfer`).send({
            shareholding: source.id,
            toMember: holders[1].id,
            quantity: '50',
            date: '2024-06-01',
          }),
        ),
        owner.agent.patch(`/v1/shareholding/${source.id}`).send({ quantity: '900' }),
        owner.agent.delete(`/v1/shareholding/${source.id}`),
        ...Array.from({ length: 10 }, () =>
          owner.agent.post(`/v1/organization/${org.id}/shareholding`).send({
            member: holders[2].id,
            security: security.id,
            quantity: '100',
            issueDate: '2024-01-15',
          }),
        ),
      ];
      const answers = await Promise.all(work);
      for (const a of answers) expect([200, 201, 400, 409]).toContain(a.status);
      const after = await holdings(owner.agent, org.id);
      expect(BigInt(await issuedShares(owner.agent, org.id, security.id))).toBe(sum(after));
      expect(sum(after)).toBeLessThanOrEqual(5000n);
      expect(await cli(t, 'ledger:verify', org.id)).toMatchObject({ code: 0 });
    });
  });

  describe('replay', () => {
    // 160 operations through HTTP and two CLI runs: more than the default 30 s on a loaded machine.
    it('after a long scripted history the tables equal the replay of the log; a tampered table is found', async () => {
      const { owner, org, security, holders } = await setUp('200000');
      const preferred = await createSecurity(owner.agent, org.id, {
        name: 'Series A Preferred',
        classType: 'preferred',
        idPrefix: 'PA-',
        authorizedShares: '50000',
        originalIssuePrice: '1.25',
        liquidationPreferenceMultiple: '1',
      });
      const classes = [security.id, preferred.id];
      const legend = (
        await owner.agent
          .post(`/v1/organization/${org.id}/legend`)
          .send({ name: 'Securities Act', text: 'Not registered.' })
          .expect(201)
      ).body;
      const random = mulberry32(20261123);
      const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
      const counts = {
        issue: 0,
        transfer: 0,
        amend: 0,
        void: 0,
        shares: 0,
        valuation: 0,
        capital: 0,
      };
      const day = (n: number) =>
        new Date(Date.UTC(2023, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
      let active: Holding[] = [];

      for (let step = 0; step < 160; step++) {
        const roll = random();
        const date = day(step * 3);
        if (roll < 0.35 || active.length === 0) {
          const res = await owner.agent.post(`/v1/organization/${org.id}/shareholding`).send({
            member: pick(holders).id,
            security: pick(classes),
            quantity: String(1 + Math.floor(random() * 3000)),
            pricePerShare: pick([null, '0.0001', '1.25']),
            issueDate: date,
            legendIds: random() < 0.3 ? [legend.id] : [],
          });
          expect([201, 400]).toContain(res.status);
          if (res.status === 201) counts.issue++;
        } else if (roll < 0.65) {
          const from = pick(active);
          const quantity = String(1 + Math.floor(random() * Number(from.quantity) * 1.2));
          const to = pick(holders.filter((h) => h.id !== from.member));
          const res = await owner.agent
            .post(`/v1/organization/${org.id}/shareholding/transfer`)
            .send({ shareholding: from.id, toMember: to.id, quantity, date });
          expect([201, 400]).toContain(res.status);
          if (res.status === 201) counts.transfer++;
          else expect(res.body.key).toBe('insufficientShares');
        } else if (roll < 0.75) {
          const h = pick(active);
          const res = await owner.agent.patch(`/v1/shareholding/${h.id}`).send({
            quantity: String(Math.max(1, Number(h.quantity) + Math.floor(random() * 200) - 100)),
          });
          expect([200, 400]).toContain(res.status);
          if (res.status === 200) counts.amend++;
        } else if (roll < 0.82) {
          await owner.agent.delete(`/v1/shareholding/${pick(active).id}`).expect(200);
          counts.void++;
        } else if (roll < 0.88) {
          await owner.agent
            .post(`/v1/organization/${org.id}/security/${pick(classes)}/shares`)
            .send({ quantity: '1000', date })
            .expect(201);
          counts.shares++;
        } else if (roll < 0.94) {
          await owner.agent
            .put('/v1/valuation')
            .send({
              organization: org.id,
              type: '409A',
              pricePerShare: (random() * 5).toFixed(4),
              effectiveDate: date,
            })
            .expect(200);
          counts.valuation++;
        } else {
          const member = pick(holders);
          await owner.agent
            .post(`/v1/entity/${member.entity}/capitalChange`)
            .send({
              organization: org.id,
              member: member.id,
              date,
              amount: (random() * 10000).toFixed(2),
              currency: 'USD',
              type: pick(['contribution', 'distribution']),
            })
            .expect(201);
          counts.capital++;
        }
        active = (await holdings(owner.agent, org.id)).filter((h) => h.status === 'active');
      }
      // The script exercised every kind of change.
      for (const [kind, n] of Object.entries(counts)) expect([kind, n > 0]).toEqual([kind, true]);

      const everything = await holdings(owner.agent, org.id);
      for (const id of classes) {
        const issued = await issuedShares(owner.agent, org.id, id);
        const held = everything
          .filter((h) => h.security === id && h.status === 'active')
          .reduce((n, h) => n + BigInt(h.quantity), 0n);
        expect(BigInt(issued)).toBe(held);
      }

      const clean = await cli(t, 'ledger:verify', org.id);
      expect(clean.code).toBe(0);
      expect(clean.stdout).toMatch(/transactions replayed; the tables equal the replay/);

      // Someone edits a current-state table behind the log's back: the replay shows it.
      const victim = active[0];
      await db.query(`UPDATE shareholding SET quantity = quantity + 7 WHERE id = $1`, [victim.id]);
      const tampered = await cli(t, 'ledger:verify', org.id);
      expect(tampered.code).toBe(1);
      expect(tampered.stderr).toContain(`shareholdings ${victim.id} quantity`);
      expect(tampered.stderr).toContain(`log says "${victim.quantity}"`);
    }, 120_000);

    it('ledger:verify needs an organization id and reports an empty log as verified', async () => {
      const usage = await cli(t, 'ledger:verify');
      expect(usage.code).toBe(2);
      expect(usage.stderr).toMatch(/ledger:verify needs an argument/);
      const notAnId = await cli(t, 'ledger:verify', 'acme');
      expect(notAnId.code).toBe(2);
      expect(notAnId.stderr).toMatch(/needs an organization id/);
      const { org } = await setUp();
      const fresh = await cli(t, 'ledger:verify', org.id);
      expect(fresh).toMatchObject({ code: 0 });
      expect(fresh.stdout).toMatch(/1 transactions replayed/);
    }, 120_000);
  });
});
