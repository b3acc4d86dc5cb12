/**
 * `npm run new:transaction TX_NAME`: the files of a new ledger transaction type, to fill in.
 *   src/cap-table/ledger/transactions/<name>.ts       its payload, rules, command, event, route
 *   src/cap-table/ledger/transactions/<name>.ocf.ts   its OCF export and import
 *   test/e2e/cap-table/<name>.e2e-spec.ts             its e2e test (failing until it is written)
 * and its line in the registry (transactions/index.ts). Then `npm run ledger:events` and
 * `npm run openapi -- metadata && npm run openapi -- client` regenerate what is derived. The
 * checklist is in docs/architecture.md ("Adding a transaction type").
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');
const type = process.argv[2] ?? '';
if (!/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(type)) {
  console.error('usage: npm run new:transaction TX_NAME (OCF style: TX_STOCK_REPURCHASE)');
  process.exit(2);
}
const words = type.replace(/^TX_/, '').toLowerCase().split('_');
const file = words.join('-');
const name =
  words[0] +
  words
    .slice(1)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
const pascal = name[0].toUpperCase() + name.slice(1);
const dir = join(root, 'src', 'cap-table', 'ledger', 'transactions');
const registry = join(dir, 'index.ts');
const targets = {
  definition: join(dir, `${file}.ts`),
  ocf: join(dir, `${file}.ocf.ts`),
  test: join(root, 'test', 'e2e', 'cap-table', `${file}.e2e-spec.ts`),
};
const index = readFileSync(registry, 'utf8');
if (index.includes(`  ${type}:`) || Object.values(targets).some(existsSync)) {
  console.error(`${type} exists already`);
  process.exit(2);
}

const definition = `import { Type, type Static } from '@sinclair/typebox';
import { LedgerRuleError } from '../ledger-state';
import { Id } from '../payload-fields';
import { shareholding } from '../rules';
import type { TransactionDefinition } from './definition';
import { ${name}Ocf } from './${file}.ocf';

/**
 * What the log keeps of it: everything a replay needs, ids included (decimals \`DecimalText()\`,
 * dates \`DateText()\`, see payload-fields.ts). Its type, the check of each entry a replay reads
 * and the payload \`GET .../transaction\` documents all come from this schema.
 */
export const ${pascal}Payload = Type.Object({
  shareholdingId: Id(),
});
export type ${pascal}Payload = Static<typeof ${pascal}Payload>;

declare module '../transaction-types' {
  interface TransactionPayloads {
    ${type}: ${pascal}Payload;
  }
}

/** ${type}: what it does, in a sentence. */
export const ${name}: TransactionDefinition<'${type}'> = {
  payload: ${pascal}Payload,
  definesRecord: false,
  ocf: ${name}Ocf,
  scope: (p) => ({ shareholdings: [p.shareholdingId] }),
  validate(state, p) {
    shareholding(state, p.shareholdingId);
    throw new LedgerRuleError('invalid', '${type}: its rules are not written yet');
  },
  apply() {
    throw new Error('${type}: apply is not written yet');
  },
  // command: { scope, prepare }, event: { type, public, audience, describe }, http: { ... }
};
`;

const ocf = `import type { OcfMapping } from './ocf-mapping';

/** What ${type} is in the Open Cap Format (see stock-repurchase.ocf.ts for a whole one). */
export const ${name}Ocf: OcfMapping<'${type}'> = {
  export: { from: 'manifest' },
};
`;

const test = `import { createTestApp, TestApp } from '../../support/app';

describe('${type}', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('writes it through its route, refuses what its rules refuse, needs its permission', async () => {
    // The route, the answer, the log, ledger:verify, the event, 400/401/403/404/409, OCF.
    expect(t).toBe('written');
  });
});
`;

writeFileSync(targets.definition, definition);
writeFileSync(targets.ocf, ocf);
writeFileSync(targets.test, test);
const withImport = index.replace(
  /(import \{ \w+ \} from '\.\/[\w-]+';\n)(?!import \{ \w+ \} from '\.\/[\w-]+';)/,
  `$1import { ${name} } from './${file}';\n`,
);
const withLine = withImport.replace(
  /\n\} satisfies \{ \[T in TransactionType\]/,
  `\n  ${type}: ${name},\n} satisfies { [T in TransactionType]`,
);
writeFileSync(registry, withLine);
console.log(
  `wrote ${Object.values(targets).join(', ')} and ${type}'s line in ${registry}; ` +
    'then: npm run ledger:events; npm run openapi -- metadata; npm run openapi -- client',
);
