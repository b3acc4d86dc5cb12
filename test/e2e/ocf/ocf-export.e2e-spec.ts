import { createHash } from 'node:crypto';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import * as yauzl from 'yauzl';
import { getOcfValidator, OCF_ID_NAMESPACE } from '../../../libs/ocf';
import { createTestApp, TestApp } from '../../support/app';
import { errorBody } from '../../support/errors';
import { memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { buildRichOrganization, RichOrganization } from './ocf-fixtures';
import { binary } from '../../support/binary';

type Item = Record<string, any> & { id: string; object_type: string };
type OcfFile = { file_type: string; items: Item[] };

const FILES = [
  'Documents.ocf.json',
  'Manifest.ocf.json',
  'Stakeholders.ocf.json',
  'StockClasses.ocf.json',
  'StockLegendTemplates.ocf.json',
  'StockPlans.ocf.json',
  'Transactions.ocf.json',
  'Valuations.ocf.json',
  'VestingTerms.ocf.json',
];
const today = () => new Date().toISOString().slice(0, 10);

/** Every entry of a zip, by name (yauzl). */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      const entries = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

/** UUID v5 (RFC 9562), written out here independently of the service's. */
function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const b = createHash('sha1')
    .update(Buffer.concat([ns, Buffer.from(name)]))
    .digest()
    .subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join('-');
}

describe('OCF export: GET /v1/organization/:organization/ocf', () => {
  let t: TestApp;
  let rich: RichOrganization;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.get<DataSource>(DataSource);
    rich = await buildRichOrganization(t);
  });
  afterAll(() => t.close());

  async function exportOf(agent: Agent, orgId: string, query = '') {
    const res = await agent
      .get(`/v1/organization/${orgId}/ocf${query}`)
      .buffer(true)
      .parse(binary as never)
      .expect(200);
    const entries = await unzip(res.body as Buffer);
    const json = (name: string) => JSON.parse(entries.get(name)!.toString('utf8'));
    return { res, entries, json };
  }

  /** Validates every file with the official schemas, and the manifest's list of files against the zip. */
  function validatePackage(entries: Map<string, Buffer>) {
    const validator = getOcfValidator();
    const errors: Record<string, unknown> = {};
    for (const [name, bytes] of entries) {
      const result = validator.validateFile(JSON.parse(bytes.toString('utf8')));
      if (!result.valid) errors[name] = result.errors;
    }
    expect(errors).toEqual({});
    const manifest = JSON.parse(entries.get('Manifest.ocf.json')!.toString('utf8'));
    const listed = Object.entries(manifest)
      .filter(([key]) => key.endsWith('_files'))
      .flatMap(([, files]) => files as { filepath: string; md5: string }[]);
    expect(listed.map((f) => f.filepath.replace(/^\.\//, '')).sort()).toEqual(
      [...entries.keys()].filter((n) => n !== 'Manifest.ocf.json').sort(),
    );
    for (const f of listed) {
      const bytes = entries.get(f.filepath.replace(/^\.\//, ''))!;
      expect(f.md5).toBe(createHash('md5').update(bytes).digest('hex'));
    }
    return manifest;
  }

  const logOf = async (orgId: string) =>
    (await db.query(
      `SELECT id, type, effective_date::text AS "effectiveDate", payload FROM equity_transaction
       WHERE organization_id = $1 ORDER BY sequence`,
      [orgId],
    )) as { id: string; type: string; effectiveDate: string; payload: Record<string, any> }[];

  it('exports every file, each valid against the OCF schemas, listed with its MD5 by the manifest', async () => {
    const { res, entries, json } = await exportOf(rich.owner.agent, rich.org.id);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Rich Cap Table Inc.-ocf-${today()}.zip"`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect([...entries.keys()].sort()).toEqual(FILES);
    const manifest = validatePackage(entries);
    expect(manifest).toMatchObject({
      ocf_version: getOcfValidator().ocfVersion,
      file_type: 'OCF_MANIFEST_FILE',
      as_of: today(),
      issuer: { object_type: 'ISSUER', id: rich.org.id, legal_name: 'Rich Cap Table Inc.' },
    });
    expect(Date.now() - Date.parse(manifest.generated_at)).toBeLessThan(60_000);

    const ids = (name: string) => (json(name) as OcfFile).items.map((i) => i.id);
    expect(ids('StockClasses.ocf.json')).toEqual([
      rich.securities.common,
      rich.securities.preferred,
    ]);
    expect(ids('StockLegendTemplates.ocf.json')).toEqual([
      rich.legends.rule144,
      rich.legends.lockUp,
    ]);
    expect(ids('StockPlans.ocf.json')).toEqual([rich.plan]);
    expect(ids('VestingTerms.ocf.json')).toEqual([rich.schedule]);
    expect(ids('Valuations.ocf.json')).toEqual([rich.valuations.common409a]);
    expect(ids('Stakeholders.ocf.json').sort()).toEqual(Object.values(rich.members).sort());
    expect((json('Documents.ocf.json') as OcfFile).items).toEqual([]);

    const [common, preferred] = (json('StockClasses.ocf.json') as OcfFile).items;
    expect(common).toMatchObject({
      class_type: 'COMMON',
      default_id_prefix: 'CS-',
      initial_shares_authorized: '10000000',
      par_value: { amount: '0.0001', currency: 'USD' },
    });
    expect(preferred).toMatchObject({
      class_type: 'PREFERRED',
      seniority: '2',
      liquidation_preference_multiple: '1',
      participation_cap_multiple: '3',
      price_per_share: { amount: '1', currency: 'USD' },
      conversion_rights: [{ converts_to_stock_class_id: rich.securities.common }],
    });
    expect(preferred.comments).toContain('ledgerline:participating=true');
    const plan = (json('StockPlans.ocf.json') as OcfFile).items[0];
    expect(plan).toMatchObject({
      initial_shares_reserved: '1000000',
      stock_class_ids: [rich.securities.common],
    });
    expect(plan.comments).toContain(
      `ledgerline:pool=${JSON.stringify({ id: rich.pool, name: 'Employees', sharesReserved: '1000000' })}`,
    );
    // Things without an OCF object are kept in the manifest's comments.
    const kept = (manifest.comments as string[]).join('\n');
    expect(kept).toContain(rich.valuations.round);
    expect(kept).toContain('"type":"TX_CONVERTIBLE_REPAYMENT"');
  });

  it('writes the log’s transactions in log order, with their OCF object types and our ids', async () => {
    const { json } = await exportOf(rich.owner.agent, rich.org.id);
    const items = (json('Transactions.ocf.json') as OcfFile).items;
    const log = await logOf(rich.org.id);
    // The log entries that are OCF transactions, in log order, by our transaction id.
    const expected: [string, string][] = [];
    for (const e of log) {
      const type =
        e.type === 'TX_CONVERTIBLE_REPAYMENT'
          ? e.id === log.filter((l) => l.type === e.type).at(-1)!.id
            ? 'TX_CONVERTIBLE_CANCELLATION'
            : undefined
          : e.type.startsWith('TX_')
            ? e.type
            : undefined;
      if (type) expected.push([e.id, type]);
    }
    const own = items.filter((i) => log.some((e) => e.id === i.id));
    expect(own.map((i) => [i.id, i.object_type])).toEqual(expected);
    expect(new Set(expected.map(([, type]) => type))).toEqual(
      new Set([
        'TX_STOCK_ISSUANCE',
        'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT',
        'TX_STOCK_PLAN_POOL_ADJUSTMENT',
        'TX_EQUITY_COMPENSATION_ISSUANCE',
        'TX_STOCK_TRANSFER',
        'TX_STOCK_CANCELLATION',
        'TX_EQUITY_COMPENSATION_CANCELLATION',
        'TX_EQUITY_COMPENSATION_EXERCISE',
        'TX_CONVERTIBLE_ISSUANCE',
        'TX_CONVERTIBLE_CONVERSION',
        'TX_WARRANT_ISSUANCE',
        'TX_CONVERTIBLE_CANCELLATION',
      ]),
    );
    // Our ids are the OCF ids: shareholdings and holdings are the securities.
    const issuance = (security: string) =>
      items.find((i) => i.security_id === security && i.object_type.endsWith('_ISSUANCE'))!;
    expect(issuance(rich.shareholdings.aliceCommon)).toMatchObject({
      object_type: 'TX_STOCK_ISSUANCE',
      stakeholder_id: rich.members.alice,
      stock_class_id: rich.securities.common,
      custom_id: 'CS-1',
      quantity: '1000000',
      share_price: { amount: '0.0001', currency: 'USD' },
      stock_legend_ids: [rich.legends.rule144],
      consideration_text: 'Assignment of intellectual property',
    });
    expect(issuance(rich.holdings.isoOption)).toMatchObject({
      object_type: 'TX_EQUITY_COMPENSATION_ISSUANCE',
      compensation_type: 'OPTION_ISO',
      option_grant_type: 'ISO',
      stock_plan_id: rich.plan,
      vesting_terms_id: rich.schedule,
      quantity: '4800',
      exercise_price: { amount: '0.5', currency: 'USD' },
      expiration_date: '2029-01-01',
      termination_exercise_windows: [
        { reason: 'VOLUNTARY_OTHER', period: 3, period_type: 'MONTHS' },
      ],
    });
    expect(issuance(rich.holdings.rsu)).toMatchObject({
      compensation_type: 'RSU',
      expiration_date: null,
    });
    expect(issuance(rich.holdings.warrant)).toMatchObject({
      object_type: 'TX_WARRANT_ISSUANCE',
      stakeholder_id: rich.members.dan,
      quantity: '50000',
      exercise_price: { amount: '1', currency: 'USD' },
    });
    expect(issuance(rich.holdings.safe)).toMatchObject({
      object_type: 'TX_CONVERTIBLE_ISSUANCE',
      convertible_type: 'SAFE',
      investment_amount: { amount: '100000', currency: 'USD' },
      conversion_triggers: [
        {
          conversion_right: {
            conversion_mechanism: {
              type: 'SAFE_CONVERSION',
              conversion_discount: '0.2',
              conversion_valuation_cap: { amount: '8000000', currency: 'USD' },
              conversion_timing: 'POST_MONEY',
            },
          },
        },
      ],
    });
    expect(issuance(rich.holdings.repaidNote)).toMatchObject({ convertible_type: 'NOTE' });
    // Vesting starts with the grant: TX_VESTING_START right after it.
    const iso = items.indexOf(issuance(rich.holdings.isoOption));
    expect(items[iso + 1]).toMatchObject({
      object_type: 'TX_VESTING_START',
      security_id: rich.holdings.isoOption,
      date: '2019-01-01',
      vesting_condition_id: 'vesting-start',
    });
    // The authorized shares of the common class: 10,000,000 + 1,000,000.
    expect(
      items.find((i) => i.object_type === 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT'),
    ).toMatchObject({
      stock_class_id: rich.securities.common,
      new_shares_authorized: '11000000',
      date: '2021-01-15',
    });
    expect(items.find((i) => i.object_type === 'TX_STOCK_PLAN_POOL_ADJUSTMENT')).toMatchObject({
      stock_plan_id: rich.plan,
      shares_reserved: '1200000',
    });
    // Voids and cancellations, the exercise and the conversions with the shares they issued.
    expect(items.find((i) => i.object_type === 'TX_STOCK_CANCELLATION')).toMatchObject({
      security_id: rich.shareholdings.voided,
      quantity: '10000',
    });
    expect(
      items.find((i) => i.object_type === 'TX_EQUITY_COMPENSATION_CANCELLATION'),
    ).toMatchObject({
      security_id: rich.holdings.nsoOption,
      quantity: '10000',
    });
    const exercise = items.findIndex((i) => i.object_type === 'TX_EQUITY_COMPENSATION_EXERCISE');
    expect(items[exercise]).toMatchObject({
      security_id: rich.holdings.isoOption,
      quantity: '1000',
      resulting_security_ids: [rich.shareholdings.exercised],
    });
    expect(items[exercise + 1]).toMatchObject({
      object_type: 'TX_STOCK_ISSUANCE',
      id: uuidV5(`${items[exercise].id}:resulting-issuance`, OCF_ID_NAMESPACE),
      security_id: rich.shareholdings.exercised,
      stakeholder_id: rich.members.carol,
      stock_class_id: rich.securities.common,
      quantity: '1000',
      share_price: { amount: '0.5', currency: 'USD' },
    });
    const conversions = items.filter((i) => i.object_type === 'TX_CONVERTIBLE_CONVERSION');
    expect(conversions.map((c) => [c.security_id, c.resulting_security_ids])).toEqual([
      [rich.holdings.safe, [rich.shareholdings.fromSafe]],
      [rich.holdings.convertedNote, [rich.shareholdings.fromNote]],
    ]);
    expect(issuance(rich.shareholdings.fromSafe)).toMatchObject({
      stakeholder_id: rich.members.dan,
      stock_class_id: rich.securities.preferred,
    });
    expect(items.filter((i) => i.object_type === 'TX_CONVERTIBLE_CANCELLATION')).toEqual([
      expect.objectContaining({
        security_id: rich.holdings.repaidNote,
        reason_text: 'Repaid in full',
        amount: { amount: '45580', currency: 'USD' },
      }),
    ]);

    // Every reference resolves: stakeholders, classes, legends, plans, vesting terms, securities.
    const stakeholders = new Set(json('Stakeholders.ocf.json').items.map((i: Item) => i.id));
    const classes = new Set(json('StockClasses.ocf.json').items.map((i: Item) => i.id));
    const legends = new Set(json('StockLegendTemplates.ocf.json').items.map((i: Item) => i.id));
    const issued = new Set(
      items.filter((i) => i.object_type.endsWith('_ISSUANCE')).map((i) => i.security_id),
    );
    for (const i of items) {
      if (i.stakeholder_id) expect(stakeholders).toContain(i.stakeholder_id);
      if (i.stock_class_id) expect(classes).toContain(i.stock_class_id);
      for (const l of i.stock_legend_ids ?? []) expect(legends).toContain(l);
      if (i.stock_plan_id) expect(i.stock_plan_id).toBe(rich.plan);
      if (i.vesting_terms_id) expect(i.vesting_terms_id).toBe(rich.schedule);
      if (i.security_id) expect(issued).toContain(i.security_id);
      for (const r of i.resulting_security_ids ?? []) expect(issued).toContain(r);
      if (i.balance_security_id) expect(issued).toContain(i.balance_security_id);
    }
  });

  it('a partial transfer consumes the source and issues a resulting and a balance security (ids from the transaction id)', async () => {
    const { json } = await exportOf(rich.owner.agent, rich.org.id);
    const items = (json('Transactions.ocf.json') as OcfFile).items;
    const transfers = items.filter((i) => i.object_type === 'TX_STOCK_TRANSFER');
    expect(transfers).toHaveLength(2);
    const [partial, full] = transfers;
    const balance = uuidV5(`${partial.id}:balance`, OCF_ID_NAMESPACE);
    expect(partial).toMatchObject({
      security_id: rich.shareholdings.aliceCommon,
      quantity: '200000',
      date: '2021-03-01',
      resulting_security_ids: [rich.shareholdings.carolFromAlice],
      balance_security_id: balance,
    });
    const at = items.indexOf(partial);
    expect(items[at + 1]).toMatchObject({
      object_type: 'TX_STOCK_ISSUANCE',
      id: uuidV5(`${partial.id}:resulting-issuance`, OCF_ID_NAMESPACE),
      security_id: rich.shareholdings.carolFromAlice,
      stakeholder_id: rich.members.carol,
      quantity: '200000',
      share_price: { amount: '0.5', currency: 'USD' },
      stock_legend_ids: [rich.legends.rule144],
    });
    expect(items[at + 2]).toMatchObject({
      object_type: 'TX_STOCK_ISSUANCE',
      id: uuidV5(`${partial.id}:balance-issuance`, OCF_ID_NAMESPACE),
      security_id: balance,
      stakeholder_id: rich.members.alice,
      custom_id: 'CS-1',
      quantity: '800000',
      date: '2021-03-01',
    });
    // A full transfer leaves no balance.
    expect(full).toMatchObject({
      security_id: rich.shareholdings.bobCommon,
      quantity: '500000',
      resulting_security_ids: [rich.shareholdings.erinFromBob],
    });
    expect(full).not.toHaveProperty('balance_security_id');
    expect(items[items.indexOf(full) + 1]).toMatchObject({
      object_type: 'TX_STOCK_ISSUANCE',
      security_id: rich.shareholdings.erinFromBob,
      stakeholder_id: rich.members.erin,
      quantity: '500000',
    });
    const noBalance = uuidV5(`${full.id}:balance-issuance`, OCF_ID_NAMESPACE);
    expect(items.some((i) => i.id === noBalance)).toBe(false);
    // The same package again: the same ids.
    const again = (await exportOf(rich.owner.agent, rich.org.id)).json('Transactions.ocf.json');
    expect(again).toEqual(json('Transactions.ocf.json'));
  });

  it('?asOf cuts the log: transactions effective on or before it, objects as they stood', async () => {
    const { res, entries, json } = await exportOf(
      rich.owner.agent,
      rich.org.id,
      '?asOf=2021-12-31',
    );
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="Rich Cap Table Inc.-ocf-2021-12-31.zip"',
    );
    const manifest = validatePackage(entries);
    expect(manifest.as_of).toBe('2021-12-31');
    const items = (json('Transactions.ocf.json') as OcfFile).items;
    expect(items.length).toBeGreaterThan(10);
    for (const i of items) expect(i.date <= '2021-12-31').toBe(true);
    const securities = items.map((i) => i.security_id);
    expect(securities).toContain(rich.shareholdings.aliceCommon);
    expect(securities).toContain(rich.holdings.safe);
    expect(securities).not.toContain(rich.shareholdings.danPreferred);
    expect(securities).not.toContain(rich.holdings.warrant);
    expect(items.some((i) => i.object_type === 'TX_CONVERTIBLE_CONVERSION')).toBe(false);
    // The holding voided later was issued on 2021-05-01; its void and the option's
    // cancellation were recorded today: not yet.
    expect(securities).toContain(rich.shareholdings.voided);
    expect(items.some((i) => i.object_type.endsWith('_CANCELLATION'))).toBe(false);
    // Definitions hold for all of history; the 2022 round's valuation does not exist yet.
    expect(json('StockClasses.ocf.json').items).toHaveLength(2);
    expect(json('Valuations.ocf.json').items.map((v: Item) => v.id)).toEqual([
      rich.valuations.common409a,
    ]);
    expect((manifest.comments ?? []).join('\n')).not.toContain(rich.valuations.round);
    // Dan holds only a SAFE then: still a stakeholder; nobody not named by a transaction.
    const named = new Set(items.map((i) => i.stakeholder_id).filter(Boolean));
    expect(new Set(json('Stakeholders.ocf.json').items.map((s: Item) => s.id))).toEqual(named);
  });

  it('refuses a malformed or future asOf with 400, an unknown parameter too', async () => {
    const base = `/v1/organization/${rich.org.id}/ocf`;
    const future = await rich.owner.agent.get(`${base}?asOf=2999-01-01`).expect(400);
    expect(future.body).toEqual({
      error: 'Bad Request',
      message: 'asOf must not be in the future',
    });
    const bad = await rich.owner.agent.get(`${base}?asOf=2024-02-30`).expect(400);
    expect(bad.body).toEqual({ error: 'Bad Request', message: expect.stringContaining('asOf') });
    await rich.owner.agent.get(`${base}?asOf=yesterday`).expect(400);
    await rich.owner.agent.get(`${base}?format=xml`).expect(400);
  });

  it('needs a session and canViewCapTable; another organization is 403, a missing one 404', async () => {
    const path = `/v1/organization/${rich.org.id}/ocf`;
    await t.http.get(path).expect(401).expect(errorBody(401));
    const shareholder = await memberAgent(t, rich.owner.agent, rich.org.id, 'Shareholder');
    await shareholder.agent.get(path).expect(403).expect(errorBody(403));
    const viewer = await memberAgent(t, rich.owner.agent, rich.org.id, 'Viewer');
    const seen = await exportOf(viewer.agent, rich.org.id);
    expect(seen.entries.size).toBe(FILES.length);
    const stranger = await loggedInAgent(t);
    await stranger.agent.get(path).expect(403).expect(errorBody(403));
    await rich.owner.agent
      .get('/v1/organization/00000000-0000-4000-8000-00000000abcd/ocf')
      .expect(404);
    await rich.owner.agent.get('/v1/organization/not-a-uuid/ocf').expect(400);
  });

  it('an organization with an empty cap table exports a valid package of empty files', async () => {
    const owner = await loggedInAgent(t);
    const org = await owner.agent
      .post('/v1/organization')
      .send({ name: 'Empty Ünïcode Co' })
      .expect(201);
    const { res, entries, json } = await exportOf(owner.agent, org.body.id);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Empty Unicode Co-ocf-${today()}.zip"; filename*=UTF-8''Empty%20%C3%9Cn%C3%AFcode%20Co-ocf-${today()}.zip`,
    );
    validatePackage(entries);
    for (const name of FILES.filter((n) => n !== 'Manifest.ocf.json')) {
      expect(json(name).items).toEqual([]);
    }
  });
});
