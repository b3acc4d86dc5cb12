import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Env, validateEnv } from './env.schema';
import { parseHookMappings } from './hook-mappings';

const TOKEN = 't'.repeat(40);
const HOOK_VARIABLES = Object.keys(new Env()).filter((name) => name.startsWith('HOOKS_'));
/** Hooks on, with what they need. */
const on = (extra: Record<string, string> = {}) =>
  validateEnv({ HOOKS_ENABLED: 'true', HOOKS_TOKEN: TOKEN, LLM_API_KEY: 'key', ...extra });
const mappings = (value: unknown) => on({ HOOKS_MAPPINGS: JSON.stringify(value) });

describe('hooks configuration (issue 24)', () => {
  it('is off by default, and blanks mean the defaults', () => {
    for (const raw of [{}, Object.fromEntries(HOOK_VARIABLES.map((name) => [name, '']))]) {
      const env = validateEnv(raw);
      expect(env).toMatchObject({
        HOOKS_ENABLED: false,
        HOOKS_PATH: '/hooks',
        HOOKS_MAX_BODY_BYTES: 262_144,
        HOOKS_PRESETS: ['gmail'],
        HOOKS_TRANSFORMS_DIR: './hooks/transforms',
        HOOKS_HEARTBEAT_EVERY: '30m',
      });
      expect(env.HOOKS_TOKEN).toBeUndefined();
      expect(env.hooksHeartbeatEveryMs).toBe(30 * 60_000);
      expect(env.hookMappings).toEqual([]);
    }
  });

  it('requires a token of 32 characters or more, other than the chat gateway’s', () => {
    expect(() => validateEnv({ HOOKS_ENABLED: 'true', LLM_API_KEY: 'key' })).toThrow(
      'HOOKS_TOKEN: required when HOOKS_ENABLED=true',
    );
    expect(() => on({ HOOKS_TOKEN: 'x'.repeat(31) })).toThrow(
      'HOOKS_TOKEN: HOOKS_TOKEN must be at least 32 characters',
    );
    expect(() => on({ CHAT_GATEWAY_TOKEN: TOKEN })).toThrow(
      'HOOKS_TOKEN: must differ from CHAT_GATEWAY_TOKEN',
    );
    expect(on({ CHAT_GATEWAY_TOKEN: 'g'.repeat(40) }).HOOKS_TOKEN).toBe(TOKEN);
  });

  it('bounds the organizations hooks reach by HOOKS_ALLOWED_ORGANIZATIONS (issue 35)', () => {
    const a = '6F9619FF-8B86-4D01-B42D-00CF4FC964FF';
    const b = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(on().HOOKS_ALLOWED_ORGANIZATIONS).toEqual([]);
    expect(on({ HOOKS_ALLOWED_ORGANIZATIONS: '' }).HOOKS_ALLOWED_ORGANIZATIONS).toEqual([]);
    expect(on({ HOOKS_ALLOWED_ORGANIZATIONS: ` ${a} ,${b},` }).HOOKS_ALLOWED_ORGANIZATIONS).toEqual(
      [a.toLowerCase(), b],
    );
    expect(() => on({ HOOKS_ALLOWED_ORGANIZATIONS: `${a},acme` })).toThrow(
      'HOOKS_ALLOWED_ORGANIZATIONS: HOOKS_ALLOWED_ORGANIZATIONS must be a comma-separated list of organization ids (UUIDs)',
    );
    // What the configuration itself names must be within the bound.
    expect(() => on({ HOOKS_ALLOWED_ORGANIZATIONS: a, HOOKS_DEFAULT_ORGANIZATION: b })).toThrow(
      'HOOKS_DEFAULT_ORGANIZATION: must be one of HOOKS_ALLOWED_ORGANIZATIONS',
    );
    expect(
      on({ HOOKS_ALLOWED_ORGANIZATIONS: a, HOOKS_DEFAULT_ORGANIZATION: a.toLowerCase() })
        .HOOKS_DEFAULT_ORGANIZATION,
    ).toBe(a.toLowerCase());
    const literal = [{ match: { path: 'x' }, messageTemplate: 'x', organization: b }];
    expect(() =>
      on({ HOOKS_ALLOWED_ORGANIZATIONS: a, HOOKS_MAPPINGS: JSON.stringify(literal) }),
    ).toThrow(
      /HOOKS_MAPPINGS: mapping 1 \(x\): organization .* is not in HOOKS_ALLOWED_ORGANIZATIONS/,
    );
  });

  it('requires the agent', () => {
    expect(() => on({ LLM_API_KEY: '' })).toThrow('HOOKS_ENABLED: needs the agent');
    expect(() => on({ AGENT_ENABLED: 'false' })).toThrow('HOOKS_ENABLED: needs the agent');
  });

  it('normalizes HOOKS_PATH and refuses the API’s own paths', () => {
    expect(on({ HOOKS_PATH: 'inbound/' }).HOOKS_PATH).toBe('/inbound');
    expect(on({ HOOKS_PATH: '//x/y//' }).HOOKS_PATH).toBe('/x/y');
    expect(on({ HOOKS_PATH: '/healthz' }).HOOKS_PATH).toBe('/healthz');
    for (const reserved of [
      '/v1',
      '/v1/hooks',
      '/api',
      '/API/x',
      '/health',
      '/health/x',
      '/docs',
      '/docs-json',
    ]) {
      expect(() => on({ HOOKS_PATH: reserved })).toThrow(
        /HOOKS_PATH: HOOKS_PATH must not be \/health nor under \/v1, \/api or \/docs/,
      );
    }
    for (const bad of ['/', '///', '/a b', '/:id']) {
      expect(() => on({ HOOKS_PATH: bad })).toThrow(/HOOKS_PATH must be a path such as \/hooks/);
    }
  });

  it('parses HOOKS_HEARTBEAT_EVERY, 0 meaning on demand only', () => {
    expect(on({ HOOKS_HEARTBEAT_EVERY: '0' }).hooksHeartbeatEveryMs).toBe(0);
    expect(on({ HOOKS_HEARTBEAT_EVERY: '45s' }).hooksHeartbeatEveryMs).toBe(45_000);
    expect(on({ HOOKS_HEARTBEAT_EVERY: '2h' }).hooksHeartbeatEveryMs).toBe(7_200_000);
    for (const bad of ['30', '1d', '-5m', 'soon', '05m']) {
      expect(() => on({ HOOKS_HEARTBEAT_EVERY: bad })).toThrow(
        `HOOKS_HEARTBEAT_EVERY must be 0 or a number with s, m or h, such as 30m (got "${bad}")`,
      );
    }
  });

  it('checks the other variables', () => {
    expect(on({ HOOKS_PRESETS: 'none' }).HOOKS_PRESETS).toEqual([]);
    expect(() => on({ HOOKS_PRESETS: 'gmail,slack' })).toThrow(/HOOKS_PRESETS must be/);
    expect(() => on({ HOOKS_DEFAULT_ORGANIZATION: 'acme' })).toThrow(
      'HOOKS_DEFAULT_ORGANIZATION must be a UUID',
    );
    expect(() => on({ HOOKS_MAX_BODY_BYTES: '0' })).toThrow(/HOOKS_MAX_BODY_BYTES must be an/);
  });

  it('reads the mappings, with their defaults', () => {
    const env = mappings([
      { match: { path: '/github/' }, messageTemplate: 'Push to {{repository.name}}' },
      {
        match: { source: 'crm' },
        action: 'wake',
        textTemplate: '{{text}}',
        mode: 'next-heartbeat',
      },
    ]);
    expect(env.hookMappings).toEqual([
      {
        match: { path: 'github' },
        action: 'agent',
        messageTemplate: 'Push to {{repository.name}}',
      },
      {
        match: { source: 'crm' },
        action: 'wake',
        textTemplate: '{{text}}',
        mode: 'next-heartbeat',
      },
    ]);
  });

  it('refuses unknown keys at every level, naming them', () => {
    expect(() =>
      mappings([
        {
          match: { path: 'a', method: 'POST' },
          messageTemplate: 'x',
          transform: { module: 'a.js', exports: 'x' },
          deliverTo: 'x',
        },
      ]),
    ).toThrow(
      /HOOKS_MAPPINGS: mapping 1 \(a\): unknown key "deliverTo"[\s\S]*unknown key "match.method"[\s\S]*unknown key "transform.exports"/,
    );
  });

  it('checks literal values like the /agent fields', () => {
    const problems = (mapping: Record<string, unknown>, models: string[] = []) =>
      parseHookMappings([{ match: {}, messageTemplate: 'm', ...mapping }], models).problems;
    expect(problems({ channel: 'slack' })).toEqual([
      'mapping 1: channel must be last or chat (got "slack")',
    ]);
    expect(problems({ thinking: 'max' })).toEqual([
      'mapping 1: thinking must be low or medium or high (got "max")',
    ]);
    expect(problems({ timeoutSeconds: 601 })).toEqual([
      'mapping 1: timeoutSeconds must be a number of seconds from 1 to 600',
    ]);
    expect(problems({ deliver: 'yes' })).toEqual(['mapping 1: deliver must be true or false']);
    expect(problems({ organization: 'acme' })).toEqual(['mapping 1: organization must be a UUID']);
    expect(problems({ action: 'ping' })).toContain(
      'mapping 1: action must be agent or wake (got "ping")',
    );
    expect(problems({ model: 'claude-opus-4-6' }, ['claude-sonnet-4-6'])).toEqual([
      'mapping 1: model must be one of LLM_ALLOWED_MODELS (claude-sonnet-4-6)',
    ]);
    expect(problems({ model: 'claude-sonnet-4-6' }, ['claude-sonnet-4-6'])).toEqual([]);
    expect(problems({ timeoutSeconds: 30.9 })).toEqual([]);
  });

  it('refuses a mapping that could never act or never be reached', () => {
    expect(parseHookMappings([{ match: {} }], []).problems).toEqual([
      'mapping 1: action agent needs messageTemplate (or a transform)',
    ]);
    expect(
      parseHookMappings([{ match: {}, action: 'wake', messageTemplate: 'm' }], []).problems,
    ).toEqual(['mapping 1: action wake needs textTemplate (or a transform)']);
    expect(parseHookMappings([{ messageTemplate: 'm' }], []).problems).toEqual([
      'mapping 1: match must be an object ({path?, source?})',
    ]);
    expect(
      parseHookMappings([{ match: { path: 'wake' }, messageTemplate: 'm' }], []).problems,
    ).toEqual(['mapping 1 (wake): match.path "wake" is answered by the built-in /wake']);
    expect(parseHookMappings({}, []).problems).toEqual(['must be a JSON array']);
  });

  it('refuses transform modules outside the folder', () => {
    const problems = (module: string) =>
      parseHookMappings([{ match: {}, transform: { module } }], []).problems;
    expect(problems('github.js')).toEqual([]);
    expect(problems('/etc/x.js')).toEqual([
      'mapping 1: transform.module must be relative to HOOKS_TRANSFORMS_DIR (got "/etc/x.js")',
    ]);
    expect(problems('a/../../x.js')).toEqual([
      'mapping 1: transform.module must not leave HOOKS_TRANSFORMS_DIR (got "a/../../x.js")',
    ]);
    expect(() =>
      mappings([{ match: {}, name: 'Escape', transform: { module: '../outside.js' } }]),
    ).toThrow(
      'HOOKS_MAPPINGS: mapping 1 (Escape): transform.module must not leave HOOKS_TRANSFORMS_DIR',
    );
    expect(problems('x.ts')).toEqual([
      'mapping 1: transform.module must be a CommonJS .js file (got "x.ts")',
    ]);
  });

  it('reads HOOKS_MAPPINGS_FILE at validation, and not with HOOKS_MAPPINGS', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hooks-config-'));
    try {
      const file = join(dir, 'mappings.json');
      writeFileSync(file, JSON.stringify([{ match: { path: 'ci' }, messageTemplate: 'CI' }]));
      expect(on({ HOOKS_MAPPINGS_FILE: file }).hookMappings).toHaveLength(1);
      expect(() => on({ HOOKS_MAPPINGS_FILE: join(dir, 'missing.json') })).toThrow(
        /HOOKS_MAPPINGS_FILE: cannot read .*missing\.json \(ENOENT\)/,
      );
      expect(() => on({ HOOKS_MAPPINGS_FILE: file, HOOKS_MAPPINGS: '[]' })).toThrow(
        'HOOKS_MAPPINGS_FILE: set it or HOOKS_MAPPINGS, not both',
      );
      expect(() => on({ HOOKS_MAPPINGS: '[{' })).toThrow(/HOOKS_MAPPINGS: not JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves the mappings unread while hooks are off', () => {
    expect(validateEnv({ HOOKS_MAPPINGS: '[{' }).hookMappings).toEqual([]);
  });
});
