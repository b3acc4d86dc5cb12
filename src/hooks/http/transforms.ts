import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, relative, resolve } from 'node:path';
import { HookMapping, hookMappingLabel } from '../../config';

/** What a transform is given: the token is already out of the headers and the URL. */
export interface TransformContext {
  payload: Record<string, unknown>;
  headers: Record<string, unknown>;
  url: string;
  path: string;
}

/** Returns fields overriding the mapping's (`text`, `message`, ...), or null: nothing to do. */
export type TransformFn = (ctx: TransformContext) => unknown;

/** A mapping ready to run: its name for messages and logs, its transform loaded. */
export interface LoadedMapping extends HookMapping {
  label: string;
  run?: TransformFn;
}

const load = createRequire(__filename);

/**
 * The transform of a mapping, loaded once at start-up. The module must resolve (symlinks
 * followed) inside `dir`: whoever can write the configuration must not be able to make the
 * service run any file on the machine. Any problem throws, naming the mapping: the app does not
 * boot.
 */
export function loadTransform(
  transform: NonNullable<HookMapping['transform']>,
  label: string,
  dir: string,
): TransformFn {
  const fail = (problem: string) => {
    throw new Error(`${label}: transform.module "${transform.module}" ${problem}`);
  };
  if (isAbsolute(transform.module) || transform.module.split(/[\\/]/).includes('..'))
    fail('must be a path inside HOOKS_TRANSFORMS_DIR');
  let root = '';
  let file = '';
  try {
    root = realpathSync(resolve(dir));
    file = realpathSync(resolve(root, transform.module));
  } catch (err) {
    fail(`cannot be found in HOOKS_TRANSFORMS_DIR ${dir} (${(err as NodeJS.ErrnoException).code})`);
  }
  const inside = relative(root, file);
  if (!inside || inside.startsWith('..') || isAbsolute(inside))
    fail(`leads out of HOOKS_TRANSFORMS_DIR ${root}`);
  const exports = load(file) as unknown;
  const fn = pick(exports, transform.export);
  if (!fn)
    fail(
      transform.export
        ? `exports no function "${transform.export}"`
        : 'exports no function (default, transform, or module.exports)',
    );
  return fn as TransformFn;
}

const isFunction = (value: unknown): value is TransformFn => typeof value === 'function';

/** `exports[name]` when named; else `default`, `transform`, or the exports themselves. */
function pick(exports: unknown, name?: string): TransformFn | undefined {
  const holder =
    exports !== null && (typeof exports === 'object' || typeof exports === 'function')
      ? (exports as Record<string, unknown>)
      : {};
  const own = (key: string) => (Object.hasOwn(holder, key) ? holder[key] : undefined);
  if (name !== undefined) {
    const named = own(name);
    return isFunction(named) ? named : undefined;
  }
  return [own('default'), own('transform'), exports].find(isFunction);
}

/** HOOKS_MAPPINGS then the presets, in the order they are tried, transforms loaded. */
export function loadMappings(
  mappings: readonly HookMapping[],
  presets: readonly (readonly [string, HookMapping])[],
  dir: string,
): LoadedMapping[] {
  const named = [
    ...mappings.map((m, i) => ({
      mapping: m,
      label: `HOOKS_MAPPINGS ${hookMappingLabel(m, i)}`,
    })),
    ...presets.map(([name, mapping]) => ({ mapping, label: `HOOKS_PRESETS ${name}` })),
  ];
  return named.map(({ mapping, label }) => ({
    ...mapping,
    label,
    ...(mapping.transform && { run: loadTransform(mapping.transform, label, dir) }),
  }));
}
