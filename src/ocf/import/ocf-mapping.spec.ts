import {
  coherentPackage,
  IDS,
  PackageFiles,
  sample,
  withManifest,
  zip,
} from '../../../test/fixtures/ocf/ocf-packages';
import { planImport, MappingOptions } from './ocf-mapping';
import { OcfPackage, readPackage } from './ocf-package';
import { scheduleShape } from './ocf-vesting';
import { readZip } from './ocf-zip';

type Item = Record<string, unknown>;

let n = 0;
const options = (more: Partial<MappingOptions> = {}): MappingOptions => ({
  membersByEmail: new Map(),
  currency: 'USD',
  fractional: false,
  today: '2026-12-01',
  newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  ...more,
});

function packageOf(files: PackageFiles): OcfPackage {
  const read = readPackage(new Map(Object.entries(withManifest(files))));
  if ('problems' in read) throw new Error(JSON.stringify(read.problems));
  return read.package;
}

const withTransactions = (change: (items: Item[]) => Item[]): PackageFiles => {
  const files = coherentPackage();
  const txs = files['Transactions.ocf.json'] as { items: Item[] };
  return { ...files, 'Transactions.ocf.json': { ...txs, items: change(txs.items) } };
};

function plan(files: PackageFiles, more: Partial<MappingOptions> = {}) {
  const result = planImport(packageOf(files), options(more));
  if ('problems' in result) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

function problems(files: PackageFiles) {
  const result = planImport(packageOf(files), options());
  if (!('problems' in result)) throw new Error('expected problems');
  return result.problems;
}

describe('OCF vesting terms as the ledger’s schedule', () => {
  const terms = (conditions: Item[]) => ({ vesting_conditions: conditions });
  const start = { id: 'start', quantity: '0', trigger: { type: 'VESTING_START_DATE' } };
  const every = (id: string, after: string, length: number, occurrences: number, more = {}) => ({
    id,
    trigger: {
      type: 'VESTING_SCHEDULE_RELATIVE',
      relative_to_condition_id: after,
      period: { length, type: 'MONTHS', occurrences, day_of_month: '01', ...more },
    },
  });

  it('reads a start, a one-time cliff and monthly periods (the official 4-year sample)', () => {
    expect(scheduleShape(sample('VestingTerms.ocf.json', IDS.schedule))).toEqual({
      totalPeriods: 48,
      periodLength: 1,
      periodType: 'months',
      cliffPeriods: 12,
      vestingDayOfMonth: null,
    });
  });

  it('reads one periodic condition with a cliff installment, and its day of the month', () => {
    expect(
      scheduleShape(terms([start, every('p', 'start', 3, 16, { cliff_installment: 4 })])),
    ).toEqual({
      totalPeriods: 16,
      periodLength: 3,
      periodType: 'months',
      cliffPeriods: 4,
      vestingDayOfMonth: '01',
    });
  });

  it('says why other shapes do not fit', () => {
    expect(scheduleShape(sample('VestingTerms.ocf.json', 'custom-vesting-100pct-upfront'))).toEqual(
      expect.stringContaining('only time-based vesting'),
    );
    expect(scheduleShape(terms([start, every('c', 'start', 12, 1), every('p', 'c', 5, 36)]))).toBe(
      'the cliff is not a whole number of vesting periods',
    );
    expect(scheduleShape(terms([start, every('p', 'elsewhere', 1, 48)]))).toBe(
      'the vesting conditions do not form one chain from the start',
    );
  });
});

describe('planImport: an OCF package as ledger transactions', () => {
  it('replays the coherent sample package: classes, holdings, aliases of balance securities', () => {
    const p = plan(coherentPackage());
    const classes = [...p.state.securities.values()].map((s) => ({
      name: s.name,
      authorized: s.authorized.toFixed(),
      issued: s.issued.toFixed(),
    }));
    expect(classes).toEqual([
      { name: 'Common Stock', authorized: '1000000000', issued: '983' },
      { name: 'Series Seed Preferred', authorized: '9365000', issued: '4900' },
    ]);
    // The cancellation names the transfer's balance security: it reduces Person X's holding.
    const personX = p.members.find((m) => m.ocfId === IDS.personX)!.memberId;
    const xHoldings = [...p.state.shareholdings.values()].filter((h) => h.memberId === personX);
    expect(xHoldings.map((h) => [h.quantity.toFixed(), h.status])).toEqual([['953', 'active']]);
    // The transferee's holding came from Person X's.
    const personY = p.members.find((m) => m.ocfId === IDS.personY)!.memberId;
    const yHolding = [...p.state.shareholdings.values()].find((h) => h.memberId === personY)!;
    expect(yHolding).toMatchObject({ transferredFromId: xHoldings[0].id });
    expect(yHolding.quantity.toFixed()).toBe('10');
    // The first vesting start is the grant's vestingStartDate, not a transaction of its own.
    const rsu = [...p.state.holdings.values()].find((h) => h.type === 'rsu')!;
    expect(rsu.terms.vestingStartDate).toBe('2020-01-01');
    expect(rsu.exercised.toFixed()).toBe('20');
    expect(p.transactions.filter((t) => t.tx.type === 'HOLDING_AMENDED')).toEqual([]);
    // Dates in order (definitions first, then the transactions by date).
    const dated = p.transactions
      .filter((t) => t.tx.type.startsWith('TX_'))
      .map((t) => t.tx.effectiveDate);
    expect(dated).toEqual([...dated].sort());
  });

  it('matches stakeholders to members by e-mail address', () => {
    const p = plan(coherentPackage(), {
      membersByEmail: new Map([['personal@test.email', 'member-of-x']]),
    });
    expect(p.members.find((m) => m.ocfId === IDS.personX)).toMatchObject({
      memberId: 'member-of-x',
      existing: true,
      email: 'personal@test.email',
    });
    expect(p.counts).toMatchObject({ stakeholders: 4, membersCreated: 3, membersMatched: 1 });
    expect(p.members.find((m) => m.ocfId === IDS.fundIV)).toMatchObject({
      existing: false,
      email: null,
      name: 'XYZ Holdings Fund IV',
    });
  });

  it('warns about what has no counterpart, and passes over the securities of transactions it cannot import', () => {
    const p = plan(
      withTransactions((items) => [
        ...items,
        sample('Transactions.ocf.json', 'test-stock-reissuance-minimal', {
          security_id: 'test-balance-security-id',
          resulting_security_ids: ['reissued'],
          date: '2023-01-01',
        }),
        sample('Transactions.ocf.json', 'test-stock-issuance-minimal', {
          id: 'reissued-issuance',
          security_id: 'reissued',
          stakeholder_id: IDS.personX,
          stock_class_id: IDS.common,
          stock_legend_ids: [],
          date: '2023-01-01',
        }),
        sample('Transactions.ocf.json', 'test-stock-cancellation-minimal', {
          id: 'cancel-reissued',
          security_id: 'reissued',
          date: '2023-02-01',
        }),
      ]),
    );
    const reasons = p.warnings.map((w) => w.reason);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringContaining('TX_STOCK_REISSUANCE has no counterpart'),
        expect.stringContaining(
          'TX_STOCK_CANCELLATION cancel-reissued: its security reissued was not imported',
        ),
      ]),
    );
    // The reissued shares were not issued: the common class is as before.
    const common = [...p.state.securities.values()].find((s) => s.name === 'Common Stock')!;
    expect(common.issued.toFixed()).toBe('983');
  });

  it('reports every reference that resolves to nothing, and no plan', () => {
    const found = problems(
      withTransactions((items) =>
        items.map((i) =>
          i.id === 'test-stock-transfer-full-fields'
            ? { ...i, resulting_security_ids: ['nowhere'] }
            : i.id === 'test-warrant-issuance-minimal'
              ? { ...i, stakeholder_id: 'ghost' }
              : i,
        ),
      ),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: '/items/1/resulting_security_ids/0',
          reason: expect.stringContaining('nowhere'),
        }),
        expect.objectContaining({
          path: '/items/11/stakeholder_id',
          reason: 'the stakeholder ghost is not in the package',
        }),
      ]),
    );
  });

  it('refuses a balance security that does not hold what remains', () => {
    const found = problems(
      withTransactions((items) =>
        items.map((i) => (i.id === 'balance-security-id' ? { ...i, quantity: '900' } : i)),
      ),
    );
    expect(found).toContainEqual({
      file: 'Transactions.ocf.json',
      path: '/items/1/balance_security_id',
      reason: 'the balance security balance-security-id holds 900, but 990 remain',
    });
  });

  it('names a transaction the ledger refuses (more than the pool has)', () => {
    const found = problems(
      withTransactions((items) =>
        items.map((i) =>
          i.id === 'test-plan-security-issuance-minimal' ? { ...i, quantity: '200000000' } : i,
        ),
      ),
    );
    expect(found).toContainEqual({
      file: 'Transactions.ocf.json',
      path: '/items/7',
      reason: expect.stringMatching(
        /^TX_EQUITY_COMPENSATION_ISSUANCE test-plan-security-issuance-minimal is refused by the ledger \(insufficientShares\)/,
      ),
    });
  });

  it('refuses fractional shares outside an LLC, and takes them in one', () => {
    const files = withTransactions((items) =>
      items.map((i) =>
        i.id === 'test-stock-issuance-full-fields' ? { ...i, quantity: '4800.5' } : i,
      ),
    );
    expect(problems(files)).toContainEqual(
      expect.objectContaining({
        path: '/items/6/quantity',
        reason: expect.stringContaining('whole number'),
      }),
    );
    expect(plan(files, { fractional: true }).counts.stockClasses).toBe(2);
  });
});

describe('readPackage and readZip', () => {
  it('reports a listed file that is missing, a wrong MD5 and a file listed twice', () => {
    const files = withManifest(coherentPackage());
    const manifest = JSON.parse(files['Manifest.ocf.json'].toString()) as Item;
    (manifest.valuations_files as Item[])[0].md5 = '0'.repeat(32);
    (manifest.stakeholders_files as Item[]).push({
      filepath: './Missing.ocf.json',
      md5: '0'.repeat(32),
    });
    (manifest.stock_plans_files as Item[])[0].filepath = './StockClasses.ocf.json';
    const read = readPackage(
      new Map(
        Object.entries({ ...files, 'Manifest.ocf.json': Buffer.from(JSON.stringify(manifest)) }),
      ),
    );
    expect(read).toEqual({
      problems: expect.arrayContaining([
        expect.objectContaining({
          path: '/stakeholders_files/1/filepath',
          reason: './Missing.ocf.json is not in the zip',
        }),
        expect.objectContaining({ path: '/valuations_files/0/md5' }),
        expect.objectContaining({
          path: '/stock_plans_files/0/filepath',
          reason: './StockClasses.ocf.json is listed twice',
        }),
      ]),
    });
  });

  it('stops at the limits it is given, whatever the headers say', async () => {
    const zipped = await zip({ 'a.txt': 'x'.repeat(100), 'b.txt': 'y' });
    expect(await readZip(zipped, { entries: 1, entryBytes: 1000, totalBytes: 1000 })).toEqual({
      problems: [{ file: '', path: '', reason: 'the zip has 2 entries, more than 1' }],
    });
    expect(await readZip(zipped, { entries: 5, entryBytes: 50, totalBytes: 1000 })).toEqual({
      problems: [{ file: 'a.txt', path: '', reason: 'inflates to more than 50 bytes' }],
    });
    expect(await readZip(zipped, { entries: 5, entryBytes: 100, totalBytes: 100 })).toEqual({
      problems: [{ file: 'b.txt', path: '', reason: 'the zip inflates to more than 100 bytes' }],
    });
    const read = await readZip(zipped);
    expect('files' in read && [...read.files.keys()]).toEqual(['a.txt', 'b.txt']);
  });
});
