import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import {
  coherentPackage,
  IDS,
  packageZip,
  PackageFiles,
  sample,
  withManifest,
  zip,
} from '../../fixtures/ocf/ocf-packages';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

type Item = Record<string, unknown>;

interface Problem {
  file: string;
  path: string;
  reason: string;
}

const MiB = 1024 * 1024;

/**
 * The bounds of an OCF import (security review, issue 19): a listed file is parsed only when its
 * MD5 is the manifest's, and the zip's entries, their total and the objects of a file are capped
 * (here far below the defaults, so that small uploads reach them).
 */
describe('OCF import limits', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        STORAGE_UPLOAD_SIZE_LIMIT_MB: '2',
        OCF_IMPORT_MAX_ENTRY_MB: '1',
        OCF_IMPORT_MAX_TOTAL_MB: '2',
        OCF_IMPORT_MAX_OBJECTS_PER_FILE: '1000',
      },
    });
    db = t.get(DataSource);
  });
  afterAll(() => t.close());

  const upload = (agent: Agent, orgId: string, content: Buffer, query = '') =>
    agent.post(`/v1/organization/${orgId}/ocf${query}`).attach('file', content, 'package.zip');

  async function owned() {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, 'Limits Inc.');
    return { owner, org };
  }

  async function footprint(orgId: string) {
    const [row] = (await db.query(
      `SELECT (SELECT count(*) FROM member WHERE organization_id = $1)::int AS members,
              (SELECT count(*) FROM security WHERE organization_id = $1)::int AS securities,
              (SELECT count(*) FROM shareholding WHERE organization_id = $1)::int AS shareholdings,
              (SELECT count(*) FROM equity_transaction WHERE organization_id = $1)::int AS log,
              (SELECT count(*) FROM outbox_event WHERE organization_id = $1)::int AS events`,
      [orgId],
    )) as Record<string, number>[];
    return row;
  }

  /** The answer to the zip, dry run and import alike: 400 invalidFields, nothing changed. */
  async function refused(content: Buffer): Promise<Problem[]> {
    const { owner, org } = await owned();
    const before = await footprint(org.id);
    const dryRun = await upload(owner.agent, org.id, content, '?dryRun=true');
    const real = await upload(owner.agent, org.id, content);
    expect([dryRun, real].map((r) => [r.status, r.body.key])).toEqual([
      [400, 'invalidFields'],
      [400, 'invalidFields'],
    ]);
    expect(real.body.problems).toEqual(dryRun.body.problems);
    expect(await footprint(org.id)).toEqual(before);
    return real.body.problems;
  }

  /** The coherent package with one more transaction item carrying a long comment. */
  const padded = (bytes: number): PackageFiles => {
    const files = coherentPackage();
    const txs = files['Transactions.ocf.json'] as { items: Item[] };
    const [first, ...rest] = txs.items;
    const item = { ...first, comments: ['x'.repeat(bytes)] };
    return { ...files, 'Transactions.ocf.json': { ...txs, items: [item, ...rest] } };
  };

  it('the coherent package imports under these limits (an honest package is not refused)', async () => {
    const { owner, org } = await owned();
    const res = await upload(owner.agent, org.id, await packageZip(coherentPackage()));
    expect(res.status).toBe(201);
    expect(res.body.imported.stakeholders).toBe(4);
  });

  it('a file whose MD5 is not the manifest’s is not parsed: the one problem is the MD5', async () => {
    const files = withManifest(coherentPackage());
    // The manifest keeps the true MD5 of the real file; the zip carries garbage under its name.
    files['Transactions.ocf.json'] = Buffer.from(
      '{"file_type":"OCF_TRANSACTIONS_FILE","items":[{},{},{}]}',
    );
    const problems = await refused(await zip(files));
    expect(problems).toEqual([
      {
        file: 'Manifest.ocf.json',
        path: expect.stringMatching(/^\/transactions_files\/0\/md5$/),
        reason: expect.stringContaining('has the MD5'),
      },
    ]);
  });

  it('the attack: a small upload whose entry inflates to 60 MiB of empty objects is refused at once, without parsing', async () => {
    const head = '{"file_type":"OCF_TRANSACTIONS_FILE","items":[';
    const count = Math.floor((60 * MiB - head.length) / 3);
    const bogus = Buffer.from(`${head}${'{},'.repeat(count - 1)}{}]}`);
    const files = withManifest(coherentPackage());
    const content = await zip({ ...files, 'Transactions.ocf.json': bogus });
    expect(content.length).toBeLessThan(MiB);

    const { owner, org } = await owned();
    const before = await footprint(org.id);
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let peak = heapBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 5);
    const started = Date.now();
    const res = await upload(owner.agent, org.id, content);
    const elapsed = Date.now() - started;
    clearInterval(sampler);

    expect(res.status).toBe(400);
    expect(res.body.problems).toEqual([
      {
        file: 'Transactions.ocf.json',
        path: '',
        reason: expect.stringMatching(/inflates to more than 1 MiB/),
      },
    ]);
    // Parsed, the 20 million objects take seconds and hundreds of MB of heap.
    expect(elapsed).toBeLessThan(5_000);
    expect((peak - heapBefore) / MiB).toBeLessThan(100);
    expect(await footprint(org.id)).toEqual(before);
  });

  it('an entry over OCF_IMPORT_MAX_ENTRY_MB is refused even with the right MD5', async () => {
    const problems = await refused(await packageZip(padded(Math.round(1.2 * MiB))));
    expect(problems).toEqual([
      {
        file: 'Transactions.ocf.json',
        path: '',
        reason: expect.stringMatching(/^inflates to more than 1 MiB$/),
      },
    ]);
  });

  it('entries over OCF_IMPORT_MAX_TOTAL_MB together are refused, listed or not', async () => {
    const files = withManifest(coherentPackage());
    const filler = (n: number) => Buffer.alloc(Math.round(0.9 * MiB), n);
    const problems = await refused(
      await zip({ ...files, 'a.bin': filler(1), 'b.bin': filler(2), 'c.bin': filler(3) }),
    );
    expect(problems).toEqual([
      {
        file: expect.stringMatching(/^(a|b|c)\.bin$|^Manifest\.ocf\.json$/),
        path: '',
        reason: expect.stringMatching(/^the zip inflates to more than 2 MiB$/),
      },
    ]);
  });

  it('a file of more than OCF_IMPORT_MAX_OBJECTS_PER_FILE objects is refused before it is parsed; 1,000 pass', async () => {
    const stakeholders = (n: number): PackageFiles => {
      const files = coherentPackage();
      const file = files['Stakeholders.ocf.json'] as { items: Item[] };
      const extra = Array.from({ length: n - file.items.length }, (_, i) =>
        sample('Stakeholders.ocf.json', IDS.fundIV, { id: `extra-${i}` }),
      );
      return { ...files, 'Stakeholders.ocf.json': { ...file, items: [...file.items, ...extra] } };
    };
    const problems = await refused(await packageZip(stakeholders(1001)));
    expect(problems).toEqual([
      {
        file: 'Stakeholders.ocf.json',
        path: '/items',
        reason: expect.stringMatching(/^holds more than 1000 objects/),
      },
    ]);

    const { owner, org } = await owned();
    const ok = await upload(
      owner.agent,
      org.id,
      await packageZip(stakeholders(1000)),
      '?dryRun=true',
    );
    expect(ok.status).toBe(200);
    expect(ok.body.imported.stakeholders).toBe(1000);
  });

  it('a file with one object of more than 10,000 JSON values is refused before it is parsed', async () => {
    const files = coherentPackage();
    const file = files['Stakeholders.ocf.json'] as { items: Item[] };
    const padded = sample('Stakeholders.ocf.json', IDS.fundIV, {
      id: 'padded',
      comments: Array.from({ length: 20_000 }, () => ({})),
    });
    files['Stakeholders.ocf.json'] = { ...file, items: [...file.items, padded] };
    const problems = await refused(await packageZip(files));
    expect(problems).toEqual([
      {
        file: 'Stakeholders.ocf.json',
        path: `/items/${file.items.length}`,
        reason: 'holds more than 10000 JSON values: not read',
      },
    ]);
  });

  it('a 40-digit quantity is a problem of its file (dry run and import alike), never a 500', async () => {
    const huge = `1${'0'.repeat(39)}`;
    const files = coherentPackage();
    const classes = files['StockClasses.ocf.json'] as { items: Item[] };
    const commonAt = classes.items.findIndex((c) => c.id === IDS.common);
    classes.items[commonAt] = {
      ...classes.items[commonAt],
      initial_shares_authorized: `2${'0'.repeat(39)}`,
    };
    const txs = files['Transactions.ocf.json'] as { items: Item[] };
    txs.items.push(
      sample('Transactions.ocf.json', 'test-stock-issuance-minimal', {
        id: 'huge-issuance',
        security_id: 'huge-security',
        stakeholder_id: IDS.personY,
        stock_class_id: IDS.common,
        stock_legend_ids: [IDS.legend],
        quantity: huge,
      }),
    );
    const problems = await refused(await packageZip(files));
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: 'StockClasses.ocf.json',
          path: `/items/${commonAt}/initial_shares_authorized`,
          reason: expect.stringContaining('more than 28 digits before the point'),
        },
        {
          file: 'Transactions.ocf.json',
          path: `/items/${txs.items.length - 1}/quantity`,
          reason: expect.stringContaining('more than 28 digits before the point'),
        },
      ]),
    );
  });
});
