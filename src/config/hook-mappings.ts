import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { HOOK_ACTION_KINDS, HOOK_FIELD_NAMES, HookFields, readHookFields } from './hook-fields';

/**
 * HOOKS_MAPPINGS (or the file HOOKS_MAPPINGS_FILE): how a gateway hook `/<name>` becomes an action
 * (issue 24). Checked whole at start-up, so a typo stops the service instead of silently never
 * matching; every problem names the mapping and the key.
 */

/** The presets HOOKS_PRESETS may name (their definitions are the hooks module's). */
export const HOOK_PRESET_NAMES = ['gmail'] as const;
export type HookPresetName = (typeof HOOK_PRESET_NAMES)[number];

/** Sub-paths the router answers itself: a mapping there would never be reached. */
const BUILT_IN_PATHS = ['wake', 'agent'];
const SUB_PATH = /^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/;

export interface HookMapping extends Omit<
  HookFields,
  'action' | 'text' | 'message' | 'sessionKey'
> {
  match: { path?: string; source?: string };
  action: (typeof HOOK_ACTION_KINDS)[number];
  /** Templates (`{{payload.a.b}}`, ...). */
  textTemplate?: string;
  messageTemplate?: string;
  sessionKey?: string;
  transform?: { module: string; export?: string };
}

/** A mapping's literal fields, checked like the `/agent` fields (sessionKey: a template, still text). */
export const HOOK_MAPPING_LITERALS = HOOK_FIELD_NAMES.filter(
  (name) => name !== 'text' && name !== 'message',
);
const KEYS = new Set<string>([
  'match',
  'textTemplate',
  'messageTemplate',
  'transform',
  ...HOOK_MAPPING_LITERALS,
]);
const MATCH_KEYS = new Set(['path', 'source']);
const TRANSFORM_KEYS = new Set(['module', 'export']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const unknownKeys = (value: Record<string, unknown>, known: Set<string>, at: string) =>
  Object.keys(value)
    .filter((key) => !known.has(key))
    .map((key) => `unknown key "${at}${key}"`);

const nonEmpty = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** A sub-path without its slashes: `/ci/build/` → `ci/build`. */
export const trimSlashes = (path: string) => path.replace(/^\/+|\/+$/g, '');

/** Checks one mapping; its problems, or the mapping with `action` defaulted and `match.path` trimmed. */
function parseMapping(
  value: unknown,
  allowedModels: readonly string[],
): { mapping: HookMapping } | { problems: string[] } {
  if (!isRecord(value)) return { problems: ['must be an object'] };
  const problems = unknownKeys(value, KEYS, '');
  for (const name of HOOK_MAPPING_LITERALS) {
    const checked = readHookFields(value, allowedModels, [name]);
    if ('error' in checked) problems.push(checked.error);
  }
  const match = value.match;
  if (!isRecord(match)) {
    problems.push('match must be an object ({path?, source?})');
  } else {
    problems.push(...unknownKeys(match, MATCH_KEYS, 'match.'));
    if (match.path !== undefined) {
      const path = typeof match.path === 'string' ? trimSlashes(match.path) : '';
      if (!SUB_PATH.test(path))
        problems.push('match.path must be a path such as github or ci/build');
      else if (BUILT_IN_PATHS.includes(path))
        problems.push(`match.path "${path}" is answered by the built-in /${path}`);
    }
    if (match.source !== undefined && !nonEmpty(match.source))
      problems.push('match.source must be a non-empty string');
  }
  for (const key of ['textTemplate', 'messageTemplate'])
    if (value[key] !== undefined && !nonEmpty(value[key]))
      problems.push(`${key} must be a non-empty string`);
  const transform = value.transform;
  if (transform !== undefined) problems.push(...transformProblems(transform));
  const action = value.action ?? 'agent';
  const template = action === 'wake' ? 'textTemplate' : 'messageTemplate';
  if (value[template] === undefined && transform === undefined)
    problems.push(`action ${String(action)} needs ${template} (or a transform)`);
  if (problems.length) return { problems };
  const checked = match as HookMapping['match'];
  return {
    mapping: {
      ...(value as unknown as HookMapping),
      action: action as HookMapping['action'],
      match: { ...checked, ...(checked.path !== undefined && { path: trimSlashes(checked.path) }) },
    },
  };
}

/** Only a relative path inside HOOKS_TRANSFORMS_DIR; the loader checks the real path too. */
function transformProblems(transform: unknown): string[] {
  if (!isRecord(transform)) return ['transform must be an object ({module, export?})'];
  const problems = unknownKeys(transform, TRANSFORM_KEYS, 'transform.');
  const module = transform.module;
  if (!nonEmpty(module)) {
    problems.push('transform.module must be a path relative to HOOKS_TRANSFORMS_DIR');
  } else {
    const path = module as string;
    if (isAbsolute(path) || /^[A-Za-z]:/.test(path) || path.startsWith('\\'))
      problems.push(`transform.module must be relative to HOOKS_TRANSFORMS_DIR (got "${path}")`);
    else if (path.split(/[\\/]/).includes('..'))
      problems.push(`transform.module must not leave HOOKS_TRANSFORMS_DIR (got "${path}")`);
    else if (!/\.c?js$/.test(path))
      problems.push(`transform.module must be a CommonJS .js file (got "${path}")`);
  }
  if (transform.export !== undefined && !nonEmpty(transform.export))
    problems.push('transform.export must be a non-empty string');
  return problems;
}

/** `mapping 2 (github)`: its place in the array (from 1), and its name or match when it has one. */
export function hookMappingLabel(
  mapping: { name?: unknown; match?: unknown },
  index: number,
): string {
  const match = isRecord(mapping.match) ? mapping.match : {};
  const name = [mapping.name, match.path, match.source].find((v) => typeof v === 'string');
  return `mapping ${index + 1}${name ? ` (${String(name)})` : ''}`;
}

/** The mappings of a parsed JSON array; problems as `<label>: <problem>`. */
export function parseHookMappings(
  value: unknown,
  allowedModels: readonly string[],
): { mappings: HookMapping[]; problems: string[] } {
  if (!Array.isArray(value)) return { mappings: [], problems: ['must be a JSON array'] };
  const mappings: HookMapping[] = [];
  const problems: string[] = [];
  value.forEach((entry, index) => {
    const parsed = parseMapping(entry, allowedModels);
    const label = hookMappingLabel(isRecord(entry) ? entry : {}, index);
    if ('mapping' in parsed) mappings.push(parsed.mapping);
    else problems.push(...parsed.problems.map((p) => `${label}: ${p}`));
  });
  return { mappings, problems };
}

/**
 * HOOKS_MAPPINGS, or the file HOOKS_MAPPINGS_FILE (read here, once per validation); each problem
 * prefixed with the variable it came from.
 */
export function readHookMappings(
  settings: { json?: string; file?: string },
  allowedModels: readonly string[],
): { mappings: HookMapping[]; problems: string[] } {
  if (settings.json !== undefined && settings.file !== undefined)
    return {
      mappings: [],
      problems: ['  HOOKS_MAPPINGS_FILE: set it or HOOKS_MAPPINGS, not both'],
    };
  const variable = settings.file !== undefined ? 'HOOKS_MAPPINGS_FILE' : 'HOOKS_MAPPINGS';
  let text = settings.json;
  if (settings.file !== undefined) {
    try {
      text = readFileSync(settings.file, 'utf8');
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      return {
        mappings: [],
        problems: [`  ${variable}: cannot read ${settings.file} (${reason})`],
      };
    }
  }
  if (text === undefined) return { mappings: [], problems: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { mappings: [], problems: [`  ${variable}: not JSON (${(err as Error).message})`] };
  }
  const parsed = parseHookMappings(value, allowedModels);
  return { ...parsed, problems: parsed.problems.map((p) => `  ${variable}: ${p}`) };
}
