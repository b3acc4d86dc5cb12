import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { LedgerReader } from '../../../src/cap-table/ledger/ledger-reader';
import { MalformedEntryError } from '../../../src/cap-table/ledger/payload-check';
import { replayAsOf } from '../../../src/cap-table/position/as-of';
import { verifyLedger } from '../../support/ledger-verify';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { cli } from '../../support/cli';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

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
      const verified = await verifyLedger(t, org.id);
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
      expect(await verifyLedger(t, org.id)).toMatchObject({ code: 0 });
    });
  });

  describe('replay', () => {
    // That the tables equal the replay after any history of writes is a property of the ledger
    // (test/service/cap-table/ledger-writer.spec.ts); here, how the CLI reports a difference.
    it('ledger:verify reports a table edited behind the log’s back (exit 1, field and both values)', async () => {
      const { owner, org, security, holders } = await setUp();
      const victim = await issue(owner.agent, org.id, {
        member: holders[0].id,
        security: security.id,
        quantity: '1000',
      });
      await db.query(`UPDATE shareholding SET quantity = quantity + 7 WHERE id = $1`, [victim.id]);
      const tampered = await cli(t, 'ledger:verify', org.id);
      expect(tampered.code).toBe(1);
      expect(tampered.stderr).toContain(`1 difference(s) between the log (2 transactions)`);
      expect(tampered.stderr).toContain(
        `shareholdings ${victim.id} quantity: log says "1000", tables hold "1007"`,
      );
    });

    it('ledger:verify reports a move edited behind the log’s back, with the date; --all verifies every organization', async () => {
      const { owner, org, security, holders } = await setUp();
      const victim = await issue(owner.agent, org.id, {
        member: holders[0].id,
        security: security.id,
        quantity: '1000',
      });
      expect(await verifyLedger(t, org.id)).toMatchObject({ code: 0, moveDifferences: [] });
      await db.query(
        `UPDATE ledger_move SET quantity = quantity - 1 WHERE record_id = $1 AND kind = 'shareholdings'`,
        [victim.id],
      );
      const tampered = await cli(t, 'ledger:verify', org.id);
      expect(tampered.code).toBe(1);
      expect(tampered.stderr).toContain(
        `as of 2024-01-15: shares ${holders[0].id} ${security.id}: log says 1000, moves make 999`,
      );
      const all = await cli(t, 'ledger:verify', '--all');
      expect(all.code).toBe(1);
      expect(all.stderr).toContain(`moves make 999`);
    }, 120_000);

    it('a log entry whose payload is not its type’s schema stops every replay, which names the type, the entry and the path', async () => {
      const { owner, org, security, holders } = await setUp();
      const held = await issue(owner.agent, org.id, {
        member: holders[0].id,
        security: security.id,
        quantity: '1000',
      });
      expect(await verifyLedger(t, org.id)).toMatchObject({ code: 0 });
      // A row written behind the writer's back (the log is append-only: a new entry), its
      // quantity a number where the schema says a decimal string.
      const [{ id }] = await db.query<{ id: string }[]>(
        `INSERT INTO equity_transaction (id, organization_id, type, effective_date, payload)
         VALUES (gen_random_uuid(), $1, 'TX_STOCK_CANCELLATION', '2024-02-01', $2) RETURNING id`,
        [org.id, JSON.stringify({ shareholdingId: held.id, quantity: 10, reason: 'typo' })],
      );
      const refused = await verifyLedger(t, org.id);
      expect(refused.code).toBe(1);
      expect(refused.replayError).toBe(
        `TX_STOCK_CANCELLATION entry ${id}: its payload at /quantity is malformed: expected string, not 10`,
      );
      // The lenient as-of replay (the cap table of a date) refuses it too, rather than pass it over.
      const log = await t.get<LedgerReader>(LedgerReader).transactions(org.id);
      expect(() => replayAsOf(log, '2024-03-01')).toThrow(MalformedEntryError);
    });

    it('keeps the billing tally (members with shares, with equity) through writes racing on two classes; ledger:verify recounts it', async () => {
      const { owner, org, security, holders } = await setUp();
      const other = await createSecurity(owner.agent, org.id, {
        name: 'Series A Preferred',
        idPrefix: 'PA-',
        authorizedShares: '1000000',
      });
      const answers = await Promise.all(
        holders.flatMap((h, i) =>
          [security, other].map((s) =>
            owner.agent.post(`/v1/organization/${org.id}/shareholding`).send({
              member: h.id,
              security: s.id,
              quantity: String(10 + i),
              issueDate: '2024-01-15',
            }),
          ),
        ),
      );
      for (const a of answers) expect(a.status).toBe(201);
      // Holder 0 gives everything away in both classes: one shareholder fewer.
      await Promise.all(
        answers.slice(0, 2).map((a) =>
          owner.agent
            .post(`/v1/organization/${org.id}/shareholding/transfer`)
            .send({
              shareholding: a.body.id,
              toMember: holders[1].id,
              quantity: '10',
              date: '2024-06-01',
            })
            .expect(201),
        ),
      );
      const tally = async () =>
        (
          await db.query(
            `SELECT shareholders, members FROM organization_equity_tally WHERE organization_id = $1`,
            [org.id],
          )
        )[0];
      expect(await tally()).toEqual({ shareholders: 3, members: 3 });
      expect(await verifyLedger(t, org.id)).toMatchObject({ code: 0 });

      await db.query(
        `UPDATE organization_equity_tally SET shareholders = 9 WHERE organization_id = $1`,
        [org.id],
      );
      const tampered = await cli(t, 'ledger:verify', org.id);
      expect(tampered.code).toBe(1);
      expect(tampered.stderr).toContain(`tally ${org.id} shareholders: log says 3, tables hold 9`);
    });

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
      expect(fresh.stdout).toMatch(
        /1 transactions replayed; the tables and the moves equal the replay/,
      );
    }, 120_000);
  });
});
