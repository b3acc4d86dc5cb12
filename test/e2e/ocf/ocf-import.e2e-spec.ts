import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { getOcfValidator } from '../../../libs/ocf';
import {
  coherentPackage,
  IDS,
  packageZip,
  PackageFiles,
  renamed,
  sample,
  verbatimSamples,
  withManifest,
  zip,
} from '../../fixtures/ocf/ocf-packages';
import { verifyLedger } from '../../support/ledger-verify';
import { createTestApp, TestApp } from '../../support/app';
import { createSecurity } from '../../support/cap-table';
import { errorBody } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

type Item = Record<string, unknown>;

interface Problem {
  file: string;
  path: string;
  reason: string;
}

describe('POST /v1/organization/:organization/ocf (OCF import)', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp({ env: { STORAGE_UPLOAD_SIZE_LIMIT_MB: '1' } });
    db = t.get(DataSource);
  });
  afterAll(() => t.close());

  const upload = (agent: Agent, orgId: string, content: Buffer, query = '') =>
    agent.post(`/v1/organization/${orgId}/ocf${query}`).attach('file', content, 'package.zip');

  async function owned() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Imported Inc.');
    return { owner, org };
  }

  /** Everything an import may leave behind in one organization. */
  async function footprint(orgId: string) {
    const [row] = (await db.query(
      `SELECT (SELECT count(*) FROM member WHERE organization_id = $1)::int AS members,
              (SELECT count(*) FROM security WHERE organization_id = $1)::int AS securities,
              (SELECT count(*) FROM legend WHERE organization_id = $1)::int AS legends,
              (SELECT count(*) FROM shareholding WHERE organization_id = $1)::int AS shareholdings,
              (SELECT count(*) FROM holding WHERE organization_id = $1)::int AS holdings,
              (SELECT count(*) FROM stock_plan WHERE organization_id = $1)::int AS plans,
              (SELECT count(*) FROM valuation WHERE organization_id = $1)::int AS valuations,
              (SELECT count(*) FROM equity_transaction WHERE organization_id = $1)::int AS log,
              (SELECT count(*) FROM outbox_event WHERE organization_id = $1)::int AS events`,
      [orgId],
    )) as Record<string, number>[];
    return row;
  }

  /** The coherent package with `change` applied to its transactions. */
  const withTransactions = (change: (items: Item[]) => Item[]): PackageFiles => {
    const files = coherentPackage();
    const txs = files['Transactions.ocf.json'] as { items: Item[] };
    return { ...files, 'Transactions.ocf.json': { ...txs, items: change(txs.items) } };
  };

  /** A refused package: 400 with problems, nothing left behind. */
  async function refusedWith(content: Buffer, query = ''): Promise<Problem[]> {
    const { owner, org } = await owned();
    const before = await footprint(org.id);
    const res = await upload(owner.agent, org.id, content, query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'Bad Request',
      key: 'invalidFields',
      message: expect.any(String),
      problems: expect.any(Array),
    });
    expect(res.body.problems.length).toBeGreaterThan(0);
    for (const p of res.body.problems as Problem[]) {
      expect(p).toEqual({
        file: expect.any(String),
        path: expect.any(String),
        reason: expect.any(String),
      });
    }
    expect(await footprint(org.id)).toEqual(before);
    return res.body.problems;
  }

  describe('a coherent package made of the official samples', () => {
    it('imports (201): members, classes, plan, holdings; the dashboard shows what the transactions imply', async () => {
      const { owner, org } = await owned();
      // Person X's address belongs to a current member: the stakeholder becomes that member.
      const existing = await owner.agent
        .post(`/v1/organization/${org.id}/member`)
        .send({ name: 'Person X (already here)', email: 'Personal@Test.email' })
        .expect(201);
      const membersAdded = async () =>
        (
          (await db.query(
            "SELECT count(*)::int AS n FROM outbox_event WHERE organization_id = $1 AND type = 'member.added'",
            [org.id],
          )) as { n: number }[]
        )[0].n;
      const addedBefore = await membersAdded();
      const res = await upload(owner.agent, org.id, await packageZip(coherentPackage())).expect(
        201,
      );
      expect(res.body.dryRun).toBe(false);
      expect(res.body.imported).toEqual({
        stakeholders: 4,
        membersCreated: 3,
        membersMatched: 1,
        stockClasses: 2,
        stockLegendTemplates: 1,
        stockPlans: 1,
        vestingTerms: 1,
        valuations: 1,
        transactions: {
          TX_STOCK_ISSUANCE: 2,
          TX_STOCK_TRANSFER: 1,
          TX_STOCK_CANCELLATION: 1,
          TX_EQUITY_COMPENSATION_ISSUANCE: 1,
          TX_VESTING_START: 1,
          TX_EQUITY_COMPENSATION_EXERCISE: 1,
          TX_WARRANT_ISSUANCE: 1,
          TX_CONVERTIBLE_ISSUANCE: 2,
          TX_CONVERTIBLE_CONVERSION: 1,
          TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT: 1,
          TX_STOCK_PLAN_POOL_ADJUSTMENT: 1,
        },
        ledgerTransactions: expect.any(Number),
      });
      const warnings = res.body.warnings as Problem[];
      // Never dropped silently: the acceptance, the event-based vesting terms, unkept fields.
      expect(warnings).toEqual(
        expect.arrayContaining([
          {
            file: 'Transactions.ocf.json',
            path: '/items/18',
            reason: expect.stringContaining('TX_STOCK_ACCEPTANCE has no counterpart'),
          },
          {
            file: 'VestingTerms.ocf.json',
            path: '/items/1/vesting_conditions',
            reason: expect.stringContaining('only time-based vesting'),
          },
          {
            file: 'Stakeholders.ocf.json',
            path: '/items/0/tax_ids',
            reason: expect.stringContaining('not imported'),
          },
          {
            file: 'Transactions.ocf.json',
            path: '/items/4/quantity',
            reason: expect.stringContaining('partial cancellation'),
          },
        ]),
      );

      const dashboard = await owner.agent.get(`/v1/captable/${org.id}/dashboard`).expect(200);
      const byClass = Object.fromEntries(
        (dashboard.body.byClass as { name: string; authorized: string; issued: string }[]).map(
          (c) => [c.name, { authorized: c.authorized, issued: c.issued }],
        ),
      );
      expect(byClass).toEqual({
        'Common Stock': { authorized: '1000000000', issued: '983' },
        'Series Seed Preferred': { authorized: '9365000', issued: '4900' },
      });
      expect(dashboard.body.issued).toBe('5883');

      const members = (await owner.agent.get(`/v1/organization/${org.id}/member`).expect(200))
        .body as { id: string; name: string; email: string | null }[];
      const idOf = (name: string) => members.find((m) => m.name === name)?.id;
      expect(idOf('Person X (already here)')).toBe(existing.body.id);
      expect(members.map((m) => m.name)).toEqual(
        expect.arrayContaining(['XYZ Holdings Fund III', 'XYZ Holdings Fund IV', 'Person Y']),
      );
      const shares = Object.fromEntries(
        (dashboard.body.byHolder as { member: string; shares: string }[]).map((h) => [
          h.member,
          h.shares,
        ]),
      );
      expect(shares).toEqual({
        [existing.body.id]: '953',
        [idOf('Person Y')!]: '10',
        [idOf('XYZ Holdings Fund III')!]: '4800',
        [idOf('XYZ Holdings Fund IV')!]: '120',
      });

      // The plan: reserved 100,000,000 after the adjustment, 20 exercised from it.
      const plans = await owner.agent.get(`/v1/organization/${org.id}/plan`).expect(200);
      expect(plans.body).toHaveLength(1);
      expect(plans.body[0]).toMatchObject({
        name: '2021 Stock Incentive Plan',
        sharesReserved: '100000000',
      });
      // Grants, warrants and convertibles: the RSU (20 of 50 exercised), the warrant, the SAFE, the converted note.
      const holdings = await db.query(
        'SELECT type, status FROM holding WHERE organization_id = $1 ORDER BY type',
        [org.id],
      );
      expect(holdings).toEqual([
        { type: 'convertible_note', status: 'converted' },
        { type: 'rsu', status: 'active' },
        { type: 'safe', status: 'active' },
        { type: 'warrant', status: 'active' },
      ]);

      // The log replays to the tables, and the write recorded its events.
      expect(await verifyLedger(t, org.id)).toMatchObject({ code: 0 });
      const events = (await db.query(
        'SELECT type, count(*)::int AS n FROM outbox_event WHERE organization_id = $1 GROUP BY type',
        [org.id],
      )) as { type: string; n: number }[];
      const counted = Object.fromEntries(events.map((e) => [e.type, e.n]));
      expect(counted).toMatchObject({
        'security.created': 2,
        'plan.created': 1,
        'shareholding.imported': 1,
      });

      expect((await membersAdded()) - addedBefore).toBe(3);

      // Imported once, the cap table is no longer empty.
      const again = await upload(owner.agent, org.id, await packageZip(coherentPackage()));
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ error: 'Conflict', key: 'capTableNotEmpty' });
    });

    it('?dryRun=true answers the same counts (200) and changes nothing', async () => {
      const { owner, org } = await owned();
      const before = await footprint(org.id);
      const res = await upload(
        owner.agent,
        org.id,
        await packageZip(coherentPackage()),
        '?dryRun=true',
      ).expect(200);
      expect(res.body.dryRun).toBe(true);
      expect(res.body.imported).toMatchObject({
        stakeholders: 4,
        membersCreated: 4,
        stockClasses: 2,
      });
      expect(res.body.warnings.length).toBeGreaterThan(0);
      expect(await footprint(org.id)).toEqual(before);
      await owner.agent.post(`/v1/organization/${org.id}/ocf?dryRun=maybe`).expect(400);
    });

    it('a package in a folder of the zip imports too; files the manifest does not list are warned about', async () => {
      const { owner, org } = await owned();
      const files = withManifest(coherentPackage());
      const entries = Object.fromEntries(
        Object.entries(files).map(([name, bytes]) => [`acme/${name}`, bytes]),
      );
      entries['acme/notes.txt'] = Buffer.from('not OCF');
      const res = await upload(owner.agent, org.id, await zip(entries)).expect(201);
      expect(res.body.warnings).toContainEqual({
        file: 'acme/notes.txt',
        path: '',
        reason: 'not listed in the manifest: not read',
      });
    });
  });

  it('the verbatim official samples are refused with 400 and problems (never a 5xx), nothing changed', async () => {
    // As they are: dummy checksums, so no listed file is read (a file is parsed only once its
    // MD5 is the manifest's).
    const verbatim = await refusedWith(await zip(verbatimSamples()));
    expect(verbatim).toContainEqual({
      file: 'Manifest.ocf.json',
      path: '/stakeholders_files/0/md5',
      reason: expect.stringContaining('has the MD5'),
    });
    expect(verbatim.filter((p) => p.file !== 'Manifest.ocf.json')).toEqual([]);
    // Checksums made right: transaction types outside the TransactionsFile schema.
    const parsed = Object.fromEntries(
      Object.entries(verbatimSamples()).map(([n, b]) => [n, JSON.parse(b.toString()) as Item]),
    );
    const schema = await refusedWith(await zip(withManifest(parsed)));
    expect(schema).toContainEqual({
      file: 'Transactions.ocf.json',
      path: expect.stringMatching(/^\/items\/\d+\/object_type$/),
      reason: 'TX_ISSUER_AUTHORIZED_SHARES_ADJUSTMENT is not allowed in an OCF_TRANSACTIONS_FILE',
    });
    // And the items the schema refuses left out: the placeholder references (securities issued
    // twice, stakeholders and classes not in the package).
    const txs = parsed['Transactions.ocf.json'] as { items: Item[] };
    const allowed = new Set<string>(getOcfValidator().itemObjectTypes('OCF_TRANSACTIONS_FILE'));
    txs.items = txs.items.filter((i) => allowed.has(String(i.object_type)));
    const references = await refusedWith(await zip(withManifest(parsed)));
    expect(references.some((p) => p.reason.includes('has the MD5'))).toBe(false);
    expect(references).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ reason: 'the security test-security-id is issued twice' }),
        expect.objectContaining({ reason: 'the stakeholder stakeholder-id is not in the package' }),
      ]),
    );
  });

  describe('malformed packages: 400 with every problem, nothing left behind', () => {
    it('bad JSON', async () => {
      const problems = await refusedWith(
        await packageZip({ ...coherentPackage(), 'Stakeholders.ocf.json': '{"file_type": ' }),
      );
      expect(problems).toEqual([
        {
          file: 'Stakeholders.ocf.json',
          path: '',
          reason: expect.stringContaining('not valid JSON'),
        },
      ]);
    });

    it('schema violations, each located', async () => {
      const problems = await refusedWith(
        await packageZip(
          withTransactions((items) =>
            items.map((i, k) =>
              k === 0 ? { ...i, quantity: 'lots' } : k === 6 ? { ...i, colour: 'blue' } : i,
            ),
          ),
        ),
      );
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ file: 'Transactions.ocf.json', path: '/items/0/quantity' }),
          expect.objectContaining({ file: 'Transactions.ocf.json', path: '/items/6/colour' }),
        ]),
      );
    });

    it('dangling references: stakeholder, class, plan, legend, security', async () => {
      const problems = await refusedWith(
        await packageZip(
          withTransactions((items) => [
            ...items,
            sample('Transactions.ocf.json', 'test-stock-issuance-minimal', {
              id: 'dangling',
              security_id: 'dangling-security',
              stakeholder_id: 'nobody',
              stock_class_id: 'no-class',
              stock_legend_ids: ['no-legend'],
            }),
            sample('Transactions.ocf.json', 'test-stock-cancellation-minimal', {
              id: 'cancel-nothing',
              security_id: 'no-such-security',
            }),
            sample('Transactions.ocf.json', 'test-plan-security-issuance-minimal', {
              id: 'no-plan',
              security_id: 'no-plan-security',
              stakeholder_id: IDS.fundIV,
              stock_plan_id: 'no-such-plan',
            }),
          ]),
        ),
      );
      const reasons = problems.map((p) => `${p.path}: ${p.reason}`);
      expect(reasons).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^\/items\/19\/stakeholder_id: the stakeholder nobody/),
          expect.stringMatching(/^\/items\/19\/stock_class_id: the stock class no-class/),
          expect.stringMatching(/^\/items\/19\/stock_legend_ids\/0: .*no-legend/),
          expect.stringMatching(/^\/items\/20\/security_id: .*no-such-security/),
          expect.stringMatching(/^\/items\/21\/stock_plan_id: the stock plan no-such-plan/),
        ]),
      );
    });

    it('an overdraw: the offending transaction is named', async () => {
      const problems = await refusedWith(
        await packageZip(
          withTransactions((items) => [
            ...items,
            sample('Transactions.ocf.json', 'test-stock-cancellation-minimal', {
              id: 'overdraw-1',
              security_id: 'transfer-to-y',
              date: '2023-01-01',
              quantity: '11',
            }),
          ]),
        ),
      );
      expect(problems).toEqual([
        {
          file: 'Transactions.ocf.json',
          path: '/items/19/quantity',
          reason: expect.stringContaining(
            'overdraw-1 takes 11 from the security transfer-to-y, which holds 10',
          ),
        },
      ]);
    });

    it('a transfer of more than the holding holds is refused by the ledger, named', async () => {
      const problems = await refusedWith(
        await packageZip(
          withTransactions((items) =>
            items.map((i) =>
              i.id === 'test-stock-transfer-full-fields'
                ? { ...i, quantity: '2000' }
                : i.id === 'transfer-to-y'
                  ? { ...i, quantity: '2000' }
                  : i,
            ),
          ),
        ),
      );
      expect(problems).toContainEqual({
        file: 'Transactions.ocf.json',
        path: '/items/1',
        reason: expect.stringMatching(
          /TX_STOCK_TRANSFER test-stock-transfer-full-fields is refused by the ledger \(insufficientShares\)/,
        ),
      });
    });

    it('zips: not a zip, no manifest, a ".." entry, an absolute path, too many entries, an entry too large', async () => {
      const notZip = await refusedWith(Buffer.from('PK? no, just text'));
      expect(notZip[0].reason).toMatch(/not a zip/);
      const noManifest = await refusedWith(await zip({ 'a.json': '{}' }));
      expect(noManifest[0].reason).toMatch(/no Manifest.ocf.json/);
      const files = withManifest(coherentPackage());
      for (const name of ['../evil.json', 'a/../../e.json', '/etc/evil.json']) {
        const placeholder = 'x'.repeat(name.length - 5) + '.json';
        const zipped = await zip({ ...files, [placeholder]: '{}' });
        const problems = await refusedWith(renamed(zipped, placeholder, name));
        expect(problems).toHaveLength(1);
        expect(problems[0].reason).toMatch(/refused|relative path|absolute/);
      }
      const many: Record<string, string> = {};
      for (let i = 0; i < 1001; i++) many[`f${i}.txt`] = '';
      const tooMany = await refusedWith(await zip({ ...files, ...many }));
      expect(tooMany[0].reason).toMatch(/1001 entries, more than 1000|entries/);
      const bomb = await zip({ ...files, 'zeros.bin': Buffer.alloc(64 * 1024 * 1024 + 1) });
      expect(bomb.length).toBeLessThan(1024 * 1024);
      const tooLarge = await refusedWith(bomb);
      expect(tooLarge).toEqual([
        { file: 'zeros.bin', path: '', reason: expect.stringContaining('inflates to more than') },
      ]);
    });
  });

  describe('access and form', () => {
    it('409 capTableNotEmpty when the organization has a cap table; members alone do not count', async () => {
      const { owner, org } = await owned();
      await createSecurity(owner.agent, org.id);
      const before = await footprint(org.id);
      const content = await packageZip(coherentPackage());
      for (const query of ['', '?dryRun=true']) {
        const res = await upload(owner.agent, org.id, content, query).expect(409);
        expect(res.body).toEqual({
          error: 'Conflict',
          key: 'capTableNotEmpty',
          message: expect.any(String),
        });
      }
      expect(await footprint(org.id)).toEqual(before);
    });

    it('missingFileArgument without a file part; 413 over the upload limit', async () => {
      const { owner, org } = await owned();
      const before = await footprint(org.id);
      const path = `/v1/organization/${org.id}/ocf`;
      const none = await owner.agent.post(path).field('note', 'no file').expect(400);
      expect(none.body).toMatchObject({ error: 'Bad Request', key: 'missingFileArgument' });
      const wrongField = await owner.agent
        .post(path)
        .attach('package', await packageZip(coherentPackage()), 'p.zip')
        .expect(400);
      expect(wrongField.body).toMatchObject({ key: 'missingFileArgument' });
      const big = await zip(
        {
          'noise.bin': Buffer.from(Array.from({ length: 1200 * 1024 }, (_, i) => (i * 7919) % 251)),
        },
        { store: true },
      );
      const tooBig = await upload(owner.agent, org.id, big).expect(413);
      expect(tooBig.body).toMatchObject({ error: 'Payload Too Large' });
      expect(await footprint(org.id)).toEqual(before);
    });

    it('needs canEditCapTable: 401 without a session, 403 for a Viewer and for another organization; an Editor may', async () => {
      const { owner, org } = await owned();
      const content = await packageZip(coherentPackage());
      const before = await footprint(org.id);
      await t.http
        .post(`/v1/organization/${org.id}/ocf`)
        .attach('file', content, 'p.zip')
        .expect(401)
        .expect(errorBody(401));
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      await upload(viewer.agent, org.id, content).expect(403).expect(errorBody(403));
      const other = await owned();
      await upload(other.owner.agent, org.id, content).expect(403).expect(errorBody(403));
      await upload(other.owner.agent, org.id, content, '?dryRun=true').expect(403);
      const after = await footprint(org.id);
      // The Viewer joined meanwhile (a member and its events); nothing of the cap table changed.
      expect({ ...after, members: before.members, events: before.events }).toEqual(before);
      expect(await footprint(other.org.id)).toMatchObject({ securities: 0, log: 0 });
      const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
      await upload(editor.agent, org.id, content).expect(201);
    });
  });
});
