import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookMapping } from '../../config';
import { loadMappings, loadTransform } from './transforms';

describe('hook transforms loader', () => {
  let base: string;
  let dir: string;
  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'hook-transforms-'));
    dir = join(base, 'transforms');
    mkdirSync(join(dir, 'nested'), { recursive: true });
    const write = (file: string, text: string) => writeFileSync(join(base, file), text);
    write('transforms/plain.js', 'module.exports = () => ({ message: "plain" });');
    write(
      'transforms/named.js',
      'exports.github = () => ({ message: "named" }); exports.default = () => null;',
    );
    write(
      'transforms/default.js',
      'exports.default = () => ({ message: "default" }); exports.transform = () => null;',
    );
    write('transforms/transform.js', 'exports.transform = async () => ({ message: "transform" });');
    write('transforms/nested/deep.js', 'module.exports = () => ({ message: "deep" });');
    write('transforms/none.js', 'exports.value = 1;');
    write('outside.js', 'module.exports = () => ({ message: "outside" });');
    symlinkSync(join(base, 'outside.js'), join(dir, 'escape.js'));
    symlinkSync(base, join(dir, 'up'));
    symlinkSync(join(dir, 'plain.js'), join(dir, 'alias.js'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const load = (module: string, name?: string) =>
    loadTransform({ module, ...(name && { export: name }) }, 'mapping 1', dir);
  const run = async (module: string, name?: string) =>
    load(module, name)({ payload: {}, headers: {}, url: '', path: '' });

  it('takes the named export, else default, else transform, else the module itself', async () => {
    expect(await run('named.js', 'github')).toEqual({ message: 'named' });
    expect(await run('default.js')).toEqual({ message: 'default' });
    expect(await run('transform.js')).toEqual({ message: 'transform' });
    expect(await run('plain.js')).toEqual({ message: 'plain' });
    expect(await run('nested/deep.js')).toEqual({ message: 'deep' });
    // A symlink that stays inside the folder is fine.
    expect(await run('alias.js')).toEqual({ message: 'plain' });
  });

  it('refuses paths and symlinks leading out of the folder, naming the mapping', () => {
    expect(() => load('../outside.js')).toThrow(
      'mapping 1: transform.module "../outside.js" must be a path inside HOOKS_TRANSFORMS_DIR',
    );
    expect(() => load(join(base, 'outside.js'))).toThrow(
      /must be a path inside HOOKS_TRANSFORMS_DIR/,
    );
    expect(() => load('escape.js')).toThrow(
      /^mapping 1: transform.module "escape.js" leads out of HOOKS_TRANSFORMS_DIR/,
    );
    expect(() => load('up/outside.js')).toThrow(
      /"up\/outside.js" leads out of HOOKS_TRANSFORMS_DIR/,
    );
  });

  it('refuses a missing module or one without the function', () => {
    expect(() => load('missing.js')).toThrow(
      /"missing.js" cannot be found in HOOKS_TRANSFORMS_DIR .* \(ENOENT\)/,
    );
    expect(() => load('none.js')).toThrow(/"none.js" exports no function \(default, transform/);
    expect(() => load('named.js', 'gitlab')).toThrow(/"named.js" exports no function "gitlab"/);
  });

  it('labels the mappings and the presets, in the order they are tried', () => {
    const mapping: HookMapping = {
      match: { path: 'a' },
      action: 'agent',
      transform: { module: 'plain.js' },
    };
    const preset: HookMapping = { match: { path: 'gmail' }, action: 'agent', messageTemplate: 'm' };
    const loaded = loadMappings([mapping, { ...mapping, name: 'Alpha' }], [['gmail', preset]], dir);
    expect(loaded.map((m) => [m.label, typeof m.run])).toEqual([
      ['HOOKS_MAPPINGS mapping 1 (a)', 'function'],
      ['HOOKS_MAPPINGS mapping 2 (Alpha)', 'function'],
      ['HOOKS_PRESETS gmail', 'undefined'],
    ]);
    expect(() =>
      loadMappings([mapping, { ...mapping, transform: { module: 'escape.js' } }], [], dir),
    ).toThrow(/^HOOKS_MAPPINGS mapping 2 \(a\): transform.module "escape.js" leads out/);
  });
});
