import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Test } from '@nestjs/testing';
import { BillingConfig } from './billing';
import { ChatConfig } from './chat';
import { ConfigModule } from './config.module';
import { CONFIG_SLICES, Env, validateEnv } from './env.schema';
import { HooksConfig } from './hooks';
import { variablesOf } from './slice';

const root = join(__dirname, '..', '..');
const bySlice = () => CONFIG_SLICES.map((slice) => [slice.name, variablesOf(slice)] as const);

/** `.env.example`'s variables under each `# ---- <slice>: ... ----` line. */
function exampleSections(): [string, string[]][] {
  const sections: [string, string[]][] = [];
  for (const line of readFileSync(join(root, '.env.example'), 'utf8').split('\n')) {
    const heading = /^# -+ ([a-z]+): .* -+$/.exec(line);
    if (heading) sections.push([heading[1], []]);
    const variable = /^([A-Z0-9_]+)=/.exec(line);
    if (variable) {
      if (!sections.length) throw new Error(`${variable[1]} comes before any slice's heading`);
      sections[sections.length - 1][1].push(variable[1]);
    }
  }
  return sections;
}

/** The README configuration table's variables under each `| **<slice>** |` row. */
function readmeSections(): [string, string[]][] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('## Permissions'),
  );
  const sections: [string, string[]][] = [];
  for (const line of section.split('\n')) {
    const heading = /^\| \*\*([a-z]+)\*\* \|/.exec(line);
    if (heading) sections.push([heading[1], []]);
    const variable = /^\| `([A-Z0-9_]+)` \|/.exec(line);
    if (variable) {
      if (!sections.length) throw new Error(`${variable[1]} comes before any slice's row`);
      sections[sections.length - 1][1].push(variable[1]);
    }
  }
  return sections;
}

const sorted = (sections: readonly (readonly [string, readonly string[]])[]) =>
  sections.map(([name, variables]) => [name, [...variables].sort()]);

describe('configuration slices', () => {
  it('declare every variable in exactly one slice, each slice in its own file', () => {
    const all = bySlice().flatMap(([, variables]) => variables);
    const twice = all.filter((name, i) => all.indexOf(name) !== i);
    expect(twice).toEqual([]);
    expect([...all].sort()).toEqual(Object.keys(new Env()).sort());
    expect(all.length).toBeGreaterThan(100);
    const names = CONFIG_SLICES.map((slice) => slice.name);
    expect(new Set(names).size).toBe(names.length);
    for (const [, variables] of bySlice()) expect(variables.length).toBeGreaterThan(0);
    // Each slice in its own file; one left out of CONFIG_SLICES would be neither validated nor in Env.
    const defined = readdirSync(__dirname)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
      .filter((file) =>
        /^export const \w+ = configSlice\(/m.test(readFileSync(join(__dirname, file), 'utf8')),
      )
      .map((file) => file.replace(/\.ts$/, ''));
    expect(defined.sort()).toEqual([...names].sort());
  });

  it('are mirrored, slice by slice, by .env.example and the README configuration table', () => {
    expect(sorted(exampleSections())).toEqual(sorted(bySlice()));
    expect(sorted(readmeSections())).toEqual(sorted(bySlice()));
  });

  it('are all read before validateEnv stops, with one report naming the problems of every slice', () => {
    let report = '';
    try {
      validateEnv({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://db',
        STORAGE_DRIVER: 'gcs',
        STORAGE_API_ENDPOINT: 'localhost:4443',
        BILLING_API_KEY: 'key',
        CHAT_GATEWAY_TOKEN: 'short',
        HOOKS_ENABLED: 'true',
      });
    } catch (err) {
      report = (err as Error).message;
    }
    const [title, ...lines] = report.split('\n');
    expect(title).toBe('Invalid configuration:');
    // Slice by slice, in the README's order: a slice's variables, then its rules across them.
    expect(lines.map((line) => /^ {2}([A-Z_]+): /.exec(line)?.[1])).toEqual([
      'PORT',
      'DATABASE_URL',
      'STORAGE_API_ENDPOINT',
      'STORAGE_BUCKET',
      'BILLING_PROVIDER_URL',
      'CHAT_GATEWAY_TOKEN',
      'HOOKS_TOKEN',
      'HOOKS_ENABLED',
    ]);
    expect(lines).toContain(
      '  BILLING_PROVIDER_URL: required with BILLING_API_KEY (or unset both: billing off)',
    );
    expect(lines).toContain(
      '  HOOKS_ENABLED: needs the agent (LLM_API_KEY set, AGENT_ENABLED not false)',
    );
  });

  it('give a module its slice: its own variables, as validated, with what the checks parsed', async () => {
    const mapping = { match: { path: 'ci' }, action: 'wake', textTemplate: 'built' };
    const env = validateEnv({
      CHAT_URL: 'http://chat.test',
      CHAT_ADMIN_TOKEN: 'admin',
      BILLING_CURRENCY: 'EUR',
      HOOKS_ENABLED: 'true',
      HOOKS_TOKEN: 'h'.repeat(32),
      HOOKS_MAPPINGS: JSON.stringify([mapping]),
      LLM_API_KEY: 'key',
    });
    const moduleRef = await Test.createTestingModule({ imports: [ConfigModule] })
      .overrideProvider(Env)
      .useValue(env)
      .compile();
    const chat = moduleRef.get(ChatConfig);
    expect(chat).toBeInstanceOf(ChatConfig);
    expect(Object.keys(chat).sort()).toEqual(Object.keys(new ChatConfig()).sort());
    expect(chat.chatConfigured).toBe(true);
    expect(chat.CHAT_DEFAULT_CHANNELS).toEqual(['town-square', 'off-topic']);
    expect(moduleRef.get(BillingConfig).BILLING_CURRENCY).toBe('EUR');
    const hooks = moduleRef.get(HooksConfig);
    expect(hooks.hookMappings).toEqual(env.hookMappings);
    expect(hooks.hookMappings).toMatchObject([mapping]);
    expect(hooks.hooksHeartbeatEveryMs).toBe(30 * 60_000);
    await moduleRef.close();
  });
});
