import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import {
  createOcfValidator,
  getOcfValidator,
  OCF_FILE_TYPES,
  OCF_OBJECT_TYPES,
  OCF_SAMPLES_DIR,
  OCF_SCHEMA_DIR,
  type OcfValidator,
} from './index';

const OCF_DIR = __dirname;

/** Every file under `dir`, relative to libs/ocf, with forward slashes, sorted. */
function filesUnder(dir: string): string[] {
  const walk = (at: string): string[] =>
    readdirSync(at, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(at, e.name)) : [join(at, e.name)],
    );
  return walk(dir)
    .map((path) => relative(OCF_DIR, path).split(sep).join('/'))
    .sort();
}

const readJson = (path: string): any => JSON.parse(readFileSync(path, 'utf8'));
const sample = (name: string): any => readJson(join(OCF_SAMPLES_DIR, name));

let validator: OcfValidator;
beforeAll(() => {
  validator = createOcfValidator();
});

describe('the vendored copy (libs/ocf, written by npm run ocf:vendor)', () => {
  it('is what was vendored: every file matches SHA256SUMS, which lists exactly the vendored files', () => {
    const sums = readFileSync(join(OCF_DIR, 'SHA256SUMS'), 'utf8').trim().split('\n');
    const listed = new Map(sums.map((line) => [line.slice(66), line.slice(0, 64)]));
    const vendored = [
      ...filesUnder(join(OCF_DIR, 'schema')),
      ...filesUnder(join(OCF_DIR, 'samples')),
    ];
    expect([...listed.keys()].sort()).toEqual([...vendored, 'LICENSE.md', 'README.md'].sort());
    const changed = [...listed].filter(
      ([rel, sum]) =>
        createHash('sha256')
          .update(readFileSync(join(OCF_DIR, rel)))
          .digest('hex') !== sum,
    );
    // A failure here means a vendored file was edited: re-run `npm run ocf:vendor` instead.
    expect(changed.map(([rel]) => rel)).toEqual([]);
  });

  it('states the OCF version (VERSION) and keeps the licence beside the schemas', () => {
    const version = readFileSync(join(OCF_DIR, 'VERSION'), 'utf8').split('\n')[0];
    expect(version).toBe('1.2.1-alpha+main');
    expect(validator.ocfVersion).toBe(version);
    expect(readFileSync(join(OCF_DIR, 'LICENSE.md'), 'utf8')).toContain(
      'Schema and Documentation License',
    );
  });

  it('every schema is draft 7, carries its copyright $comment and a unique $id matching its path', () => {
    const schemas = filesUnder(OCF_SCHEMA_DIR);
    expect(schemas.length).toBeGreaterThan(150);
    const ids = new Set<string>();
    for (const rel of schemas) {
      const schema = readJson(join(OCF_DIR, rel));
      expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema');
      expect(schema.$id).toBe(
        `https://raw.githubusercontent.com/Open-Cap-Table-Coalition/Open-Cap-Format-OCF/main/${rel}`,
      );
      expect(schema.$comment).toMatch(/^Copyright © \d{4} Open Cap Table Coalition/);
      ids.add(schema.$id);
    }
    expect(ids.size).toBe(schemas.length);
  });

  it('ocf-types.ts lists the file and object types of the schemas enums', () => {
    expect([...OCF_FILE_TYPES]).toEqual(
      readJson(join(OCF_SCHEMA_DIR, 'enums/FileType.schema.json')).enum,
    );
    expect([...OCF_OBJECT_TYPES]).toEqual(
      readJson(join(OCF_SCHEMA_DIR, 'enums/ObjectType.schema.json')).enum,
    );
    expect(validator.fileTypes).toEqual(OCF_FILE_TYPES);
    expect(validator.objectTypes).toEqual(OCF_OBJECT_TYPES);
  });
});

describe('schema lookup', () => {
  it('has a file schema for every file type and an object schema for every object type', () => {
    for (const type of OCF_FILE_TYPES)
      expect(validator.fileSchemaId(type)).toMatch(/\/schema\/files\//);
    for (const type of OCF_OBJECT_TYPES)
      expect(validator.objectSchemaId(type)).toMatch(/\/schema\/objects\//);
    expect(validator.fileSchemaId('OCF_TRANSACTIONS_FILE')).toMatch(
      /files\/TransactionsFile\.schema\.json$/,
    );
    expect(validator.objectSchemaId('TX_STOCK_ISSUANCE')).toMatch(
      /issuance\/StockIssuance\.schema\.json$/,
    );
    // Fixed by a const in its own (compatibility) schema...
    expect(validator.objectSchemaId('TX_PLAN_SECURITY_ISSUANCE')).toMatch(
      /PlanSecurityIssuance\.schema\.json$/,
    );
    // ...and listed by the enum of the schema that has no const.
    expect(validator.objectSchemaId('TX_EQUITY_COMPENSATION_ISSUANCE')).toMatch(
      /EquityCompensationIssuance\.schema\.json$/,
    );
    expect(validator.fileSchemaId('OCF_NOPE_FILE')).toBeUndefined();
    expect(validator.objectSchemaId('NOPE')).toBeUndefined();
  });

  it('knows which object types each file admits', () => {
    expect(validator.itemObjectTypes('OCF_STAKEHOLDERS_FILE')).toEqual(['STAKEHOLDER']);
    expect(validator.itemObjectTypes('OCF_MANIFEST_FILE')).toEqual([]);
    const transactions = validator.itemObjectTypes('OCF_TRANSACTIONS_FILE');
    expect(transactions).toContain('TX_STOCK_ISSUANCE');
    expect(transactions).toContain('TX_PLAN_SECURITY_ISSUANCE'); // through EquityCompensationIssuance's enum
    // Object types with a schema that the TransactionsFile does not list.
    const outside = OCF_OBJECT_TYPES.filter(
      (t) => (t.startsWith('TX_') || t.startsWith('CE_')) && !transactions.includes(t),
    );
    expect(outside).toEqual([
      'CE_STAKEHOLDER_RELATIONSHIP',
      'CE_STAKEHOLDER_STATUS',
      'TX_ISSUER_AUTHORIZED_SHARES_ADJUSTMENT',
      'TX_EQUITY_COMPENSATION_REPRICING',
    ]);
  });
});

describe('the verbatim official samples (libs/ocf/samples)', () => {
  const notInTransactionsFile = (type: string) =>
    `${type} is not allowed in an OCF_TRANSACTIONS_FILE`;
  /** The actual result per sample file: [] = valid as is. */
  const expected: Record<string, { path: string; message: string }[]> = {
    'Documents.ocf.json': [],
    'Financings.ocf.json': [],
    'Manifest.ocf.json': [],
    'Stakeholders.ocf.json': [],
    'StockClasses.ocf.json': [],
    'StockLegends.ocf.json': [],
    'StockPlans.ocf.json': [],
    // The sample lists transaction types that the TransactionsFile schema's oneOf does not admit.
    'Transactions.ocf.json': [
      {
        path: '/items/0/object_type',
        message: notInTransactionsFile('TX_ISSUER_AUTHORIZED_SHARES_ADJUSTMENT'),
      },
      {
        path: '/items/1/object_type',
        message: notInTransactionsFile('TX_ISSUER_AUTHORIZED_SHARES_ADJUSTMENT'),
      },
      {
        path: '/items/25/object_type',
        message: notInTransactionsFile('TX_EQUITY_COMPENSATION_REPRICING'),
      },
      {
        path: '/items/82/object_type',
        message: notInTransactionsFile('CE_STAKEHOLDER_RELATIONSHIP'),
      },
      {
        path: '/items/83/object_type',
        message: notInTransactionsFile('CE_STAKEHOLDER_RELATIONSHIP'),
      },
      {
        path: '/items/84/object_type',
        message: notInTransactionsFile('CE_STAKEHOLDER_RELATIONSHIP'),
      },
      { path: '/items/85/object_type', message: notInTransactionsFile('CE_STAKEHOLDER_STATUS') },
    ],
    'Valuations.ocf.json': [],
    'VestingTerms.example1.ocf.json': [],
    'VestingTerms.example2.ocf.json': [],
    'VestingTerms.ocf.json': [],
    'VestingTransactions.examples.ocf.json': [],
  };

  it('are all classified here (a new sample must be added to this table)', () => {
    expect(readdirSync(OCF_SAMPLES_DIR).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))('%s: validates as documented', (name, errors) => {
    const result = validator.validateFile(sample(name));
    expect(result).toEqual({ valid: errors.length === 0, errors });
  });

  it('every item of every sample is valid against its own object schema', () => {
    const failures: string[] = [];
    let count = 0;
    for (const name of Object.keys(expected)) {
      const json = sample(name);
      const objects = name === 'Manifest.ocf.json' ? [json.issuer] : json.items;
      for (const item of objects) {
        count++;
        const result = validator.validateObject(item.object_type, item);
        if (!result.valid) failures.push(`${name} ${item.id}: ${JSON.stringify(result.errors)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(count).toBe(109);
  });

  it('are no coherent package: dummy checksums, an unlisted file, references to nothing', () => {
    const manifest = sample('Manifest.ocf.json');
    const listed = Object.keys(manifest)
      .filter((key) => key.endsWith('_files'))
      .flatMap((key) => manifest[key] as { filepath: string; md5: string }[]);
    expect(listed).toHaveLength(8);
    for (const file of listed) {
      const md5 = createHash('md5')
        .update(readFileSync(join(OCF_SAMPLES_DIR, file.filepath)))
        .digest('hex');
      expect({ file: file.filepath, md5 }).not.toEqual({ file: file.filepath, md5: file.md5 });
    }
    expect(listed.map((f) => f.filepath)).not.toContain('./Documents.ocf.json');

    const ids = (name: string) =>
      new Set<string>(sample(name).items.map((i: { id: string }) => i.id));
    const stakeholders = ids('Stakeholders.ocf.json');
    const classes = ids('StockClasses.ocf.json');
    const transactions: Record<string, unknown>[] = sample('Transactions.ocf.json').items;
    const dangling = (key: string, known: Set<string>) => {
      const refs = transactions
        .map((t) => t[key])
        .filter((v): v is string => typeof v === 'string');
      return { refs: refs.length, dangling: refs.filter((id) => !known.has(id)).length };
    };
    expect(dangling('stakeholder_id', stakeholders)).toEqual({ refs: 22, dangling: 22 });
    expect(dangling('stock_class_id', classes)).toEqual({ refs: 8, dangling: 6 });
  });
});

/** A minimal valid package: manifest, stakeholders, stock classes and one issuance. */
function minimalPackage() {
  const file = (filepath: string) => ({ filepath, md5: 'd41d8cd98f00b204e9800998ecf8427e' });
  return {
    manifest: {
      ocf_version: '1.2.1-alpha+main',
      file_type: 'OCF_MANIFEST_FILE',
      issuer: {
        object_type: 'ISSUER',
        id: 'issuer-1',
        legal_name: 'Example, Inc.',
        formation_date: '2020-01-02',
        country_of_formation: 'US',
      },
      as_of: '2024-06-30',
      generated_at: '2024-07-01T09:30:00Z',
      stock_plans_files: [],
      stock_legend_templates_files: [],
      stock_classes_files: [file('StockClasses.ocf.json')],
      vesting_terms_files: [],
      valuations_files: [],
      transactions_files: [file('Transactions.ocf.json')],
      stakeholders_files: [file('Stakeholders.ocf.json')],
    },
    stakeholders: {
      file_type: 'OCF_STAKEHOLDERS_FILE',
      items: [
        {
          object_type: 'STAKEHOLDER',
          id: 'sh-1',
          name: { legal_name: 'Ada Founder' },
          stakeholder_type: 'INDIVIDUAL',
        },
      ],
    },
    stockClasses: {
      file_type: 'OCF_STOCK_CLASSES_FILE',
      items: [
        {
          object_type: 'STOCK_CLASS',
          id: 'class-common',
          name: 'Common Stock',
          class_type: 'COMMON',
          default_id_prefix: 'CS-',
          initial_shares_authorized: '10000000',
          votes_per_share: '1',
          seniority: '1',
        },
      ],
    },
    transactions: {
      file_type: 'OCF_TRANSACTIONS_FILE',
      items: [
        {
          object_type: 'TX_STOCK_ISSUANCE',
          id: 'tx-1',
          date: '2020-01-03',
          security_id: 'sec-1',
          custom_id: 'CS-1',
          stakeholder_id: 'sh-1',
          security_law_exemptions: [],
          stock_class_id: 'class-common',
          share_price: { amount: '0.0001', currency: 'USD' },
          quantity: '4000000',
          stock_legend_ids: [],
        },
      ],
    },
  };
}

describe('validateFile', () => {
  it('accepts a minimal hand-written package', () => {
    for (const [name, file] of Object.entries(minimalPackage())) {
      expect({ name, ...validator.validateFile(file) }).toEqual({ name, valid: true, errors: [] });
    }
  });

  it('locates schema violations by JSON pointer', () => {
    const { transactions, stakeholders, manifest } = minimalPackage();
    const issuance: Record<string, unknown> = transactions.items[0];
    transactions.items.push({ ...transactions.items[0], id: 'tx-2' });
    transactions.items[1].quantity = 12 as unknown as string; // a number, not a Numeric string
    delete issuance.stock_class_id;
    issuance.shares = '1';
    expect(validator.validateFile(transactions)).toEqual({
      valid: false,
      errors: [
        { path: '/items/0/stock_class_id', message: 'is required' },
        {
          path: '/items/0/shares',
          message: 'is not allowed here (no such property in the schema)',
        },
        { path: '/items/1/quantity', message: 'must be string' },
      ],
    });

    (stakeholders.items[0] as Record<string, unknown>).stakeholder_type = 'ROBOT';
    const stakeholderErrors = validator.validateFile(stakeholders);
    expect(stakeholderErrors.valid).toBe(false);
    expect(stakeholderErrors.errors).toEqual([
      { path: '/items/0/stakeholder_type', message: 'must be one of "INDIVIDUAL", "INSTITUTION"' },
    ]);

    manifest.as_of = '2024-02-30';
    manifest.ocf_version = '1.0.0';
    expect(validator.validateFile(manifest).errors).toEqual([
      { path: '/ocf_version', message: 'must be "1.2.1-alpha+main"' },
      { path: '/as_of', message: 'must match format "date"' },
    ]);
  });

  it('reports an unknown, missing or mistyped file_type, and a document that is no object', () => {
    expect(validator.validateFile({ file_type: 'OCF_SPREADSHEET_FILE', items: [] })).toEqual({
      valid: false,
      errors: [
        {
          path: '/file_type',
          message: expect.stringMatching(
            /^unknown OCF file type "OCF_SPREADSHEET_FILE" \(expected one of OCF_MANIFEST_FILE, /,
          ),
        },
      ],
    });
    expect(validator.validateFile({ items: [] }).errors).toEqual([
      { path: '/file_type', message: 'is required' },
    ]);
    expect(validator.validateFile({ file_type: 7 }).errors[0].path).toBe('/file_type');
    for (const notAnObject of [null, [], 'OCF_MANIFEST_FILE', 3]) {
      expect(validator.validateFile(notAnObject)).toEqual({
        valid: false,
        errors: [{ path: '', message: 'must be an object (an OCF file)' }],
      });
    }
  });

  it('explains a transaction by the schema its object_type selects, not by every oneOf branch', () => {
    const { transactions } = minimalPackage();
    const items: unknown[] = transactions.items;
    items.push({ id: 'no-type', date: '2020-01-01' });
    items.push({ object_type: 'TX_TELEPORTATION', id: 'x' });
    items.push({
      object_type: 'STAKEHOLDER',
      id: 'sh',
      name: { legal_name: 'A' },
      stakeholder_type: 'INDIVIDUAL',
    });
    items.push('not an object');
    expect(validator.validateFile(transactions).errors).toEqual([
      { path: '/items/1/object_type', message: 'is required' },
      { path: '/items/2/object_type', message: 'unknown OCF object type "TX_TELEPORTATION"' },
      {
        path: '/items/3/object_type',
        message: 'STAKEHOLDER is not allowed in an OCF_TRANSACTIONS_FILE',
      },
      { path: '/items/4', message: 'must be object' },
    ]);
  });

  it('reports at most maxErrors errors', () => {
    const few = createOcfValidator({ maxErrors: 3 });
    const { stakeholders } = minimalPackage();
    const file = {
      ...stakeholders,
      items: Array.from({ length: 10 }, (_, i) => ({ object_type: 'STAKEHOLDER', id: `s${i}` })),
    };
    const result = few.validateFile(file);
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(3);
  });

  it('decides a TransactionsFile as its oneOf does (per-object_type dispatch is only faster)', () => {
    const official = createOcfValidator({ dispatchItems: false });
    const base = sample('Transactions.ocf.json').items as Record<string, unknown>[];
    const variants: unknown[] = [];
    for (const item of base) {
      variants.push(item);
      const { id: _id, ...noId } = item;
      variants.push(noId);
      const { object_type: _type, ...noType } = item;
      variants.push(noType);
      variants.push({ ...item, extra: true });
      variants.push({ ...item, date: 'yesterday' });
      variants.push({ ...item, object_type: 'TX_STOCK_ISSUANCE' });
      variants.push({ ...item, object_type: 'TX_PLAN_SECURITY_ISSUANCE' });
    }
    let validCount = 0;
    for (const item of variants) {
      const file = { file_type: 'OCF_TRANSACTIONS_FILE', items: [item] };
      const verdict = official.validateFile(file);
      expect({ item, valid: validator.validateFile(file).valid }).toEqual({
        item,
        valid: verdict.valid,
      });
      if (verdict.valid) validCount++;
    }
    expect(validCount).toBeGreaterThan(79); // the sample's admitted transactions, at least
    const whole = sample('Transactions.ocf.json');
    expect(official.validateFile(whole)).toEqual(validator.validateFile(whole));
  });

  it('validates 100,000 transactions in one file (no timing bound here: about 0.2 s warm)', () => {
    const admitted = new Set<string>(validator.itemObjectTypes('OCF_TRANSACTIONS_FILE'));
    const pool = (sample('Transactions.ocf.json').items as Record<string, string>[]).filter((i) =>
      admitted.has(i.object_type),
    );
    const items: Record<string, unknown>[] = Array.from({ length: 100_000 }, (_, i) => ({
      ...pool[i % pool.length],
      id: `tx-${i}`,
    }));
    expect(validator.validateFile({ file_type: 'OCF_TRANSACTIONS_FILE', items })).toEqual({
      valid: true,
      errors: [],
    });
    items[99_999] = { ...items[99_999], date: '2020-13-01' };
    expect(validator.validateFile({ file_type: 'OCF_TRANSACTIONS_FILE', items }).errors).toEqual([
      { path: '/items/99999/date', message: 'must match format "date"' },
    ]);
  });
});

describe('validateObject', () => {
  it('validates one object against the schema of its object type', () => {
    const { stakeholders, transactions } = minimalPackage();
    expect(validator.validateObject('STAKEHOLDER', stakeholders.items[0])).toEqual({
      valid: true,
      errors: [],
    });
    expect(validator.validateObject('TX_STOCK_ISSUANCE', transactions.items[0])).toEqual({
      valid: true,
      errors: [],
    });
    const { quantity: _q, ...noQuantity } = transactions.items[0];
    expect(
      validator.validateObject('TX_STOCK_ISSUANCE', {
        ...noQuantity,
        share_price: { amount: '1' },
      }),
    ).toEqual({
      valid: false,
      errors: [
        { path: '/quantity', message: 'is required' },
        { path: '/share_price/currency', message: 'is required' },
      ],
    });
  });

  it('reports an object of another type and an unknown object type', () => {
    const { stakeholders } = minimalPackage();
    expect(validator.validateObject('STOCK_CLASS', stakeholders.items[0]).errors).toContainEqual({
      path: '/object_type',
      message: 'must be "STOCK_CLASS"',
    });
    expect(validator.validateObject('TX_TELEPORTATION', {})).toEqual({
      valid: false,
      errors: [{ path: '/object_type', message: 'unknown OCF object type "TX_TELEPORTATION"' }],
    });
  });
});

describe('getOcfValidator', () => {
  it('is one validator per process', () => {
    expect(getOcfValidator()).toBe(getOcfValidator());
  });
});
