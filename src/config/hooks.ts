import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, IsUUID, Matches, MinLength } from 'class-validator';
import { agentEnabled, type AgentConfig } from './agent';
import type { ChatConfig } from './chat';
import {
  HOOK_PRESET_NAMES,
  HookMapping,
  hookMappingLabel,
  readHookMappings,
} from './hook-mappings';
import { configSlice, keepParsed, readParsed } from './slice';
import { blankTo, emptyToUndefined, IntegerIn, toList, yesNo } from './variable-rules';

/** `hooks/` → `/hooks`: a slash in front, none at the end (`/` becomes empty, refused). */
const hooksPath = (value: string) => `/${value.trim()}`.replace(/^\/+/, '/').replace(/\/+$/, '');

const MAPPINGS = Symbol('the parsed HOOKS_MAPPINGS');

/** Gateway hooks (issue 24): outside systems wake the agent or hand it a task. Off by default. */
export class HooksConfig {
  @Transform(blankTo(false, yesNo))
  @IsBoolean({ message: 'HOOKS_ENABLED must be true or false' })
  HOOKS_ENABLED = false;

  /** The callers' shared secret; required with HOOKS_ENABLED. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'HOOKS_TOKEN must be at least 32 characters' })
  HOOKS_TOKEN?: string;

  /** Where the hooks are mounted, outside the API's own paths (which it would shadow). */
  @Transform(blankTo('/hooks', (value) => (typeof value === 'string' ? hooksPath(value) : value)))
  @Matches(/^(?!\/(v1|api|docs)|\/health(\/|$))(\/[A-Za-z0-9._~-]+)+$/i, {
    message: (args) =>
      /^(\/[A-Za-z0-9._~-]+)+$/.test(String(args.value))
        ? `HOOKS_PATH must not be /health nor under /v1, /api or /docs (got "${String(args.value)}")`
        : `HOOKS_PATH must be a path such as /hooks, not / (got "${String(args.value)}")`,
  })
  HOOKS_PATH = '/hooks';

  @Transform(blankTo(262_144, Number))
  @IntegerIn(1, 16 * 1024 * 1024)
  HOOKS_MAX_BODY_BYTES = 262_144;

  /** Built-in mappings, after HOOKS_MAPPINGS; `none` for none. */
  @Transform(blankTo(['gmail'], (value) => (value === 'none' ? [] : toList({ value }))))
  @IsIn(HOOK_PRESET_NAMES, {
    each: true,
    message: (args) =>
      `HOOKS_PRESETS must be a comma-separated list of ${HOOK_PRESET_NAMES.join(', ')} (or none) (got "${String(args.value)}")`,
  })
  HOOKS_PRESETS: string[] = ['gmail'];

  /** A JSON array of mappings (see the README); read through `hookMappings`. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  HOOKS_MAPPINGS?: string;

  /** A file holding the JSON array instead, read at start-up. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  HOOKS_MAPPINGS_FILE?: string;

  /** Where a mapping's `transform.module` is looked up (it may not leave the folder). */
  @Transform(blankTo('./hooks/transforms'))
  @IsString()
  HOOKS_TRANSFORMS_DIR = './hooks/transforms';

  /** How often the main conversation's heartbeat runs: `<n>s`, `<n>m`, `<n>h`; `0`: on demand only. */
  @Transform(blankTo('30m'))
  @Matches(/^(0|[1-9]\d{0,5}[smh])$/, {
    message: (args) =>
      `HOOKS_HEARTBEAT_EVERY must be 0 or a number with s, m or h, such as 30m (got "${String(args.value)}")`,
  })
  HOOKS_HEARTBEAT_EVERY = '30m';

  /** The organization of a hook request that names none. */
  @Transform(({ value }: { value: unknown }) =>
    value === '' ? undefined : typeof value === 'string' ? value.toLowerCase() : value,
  )
  @IsOptional()
  @IsUUID('all', { message: 'HOOKS_DEFAULT_ORGANIZATION must be a UUID' })
  HOOKS_DEFAULT_ORGANIZATION?: string;

  /** The only organizations a hook may reach (lower-cased UUIDs); empty: any. */
  @Transform(blankTo([], (value) => toList({ value })))
  @IsUUID('all', {
    each: true,
    message:
      'HOOKS_ALLOWED_ORGANIZATIONS must be a comma-separated list of organization ids (UUIDs)',
  })
  HOOKS_ALLOWED_ORGANIZATIONS: string[] = [];

  /** The parsed HOOKS_MAPPINGS or HOOKS_MAPPINGS_FILE (validateEnv reads them when hooks are on). */
  get hookMappings(): readonly HookMapping[] {
    return readParsed<readonly HookMapping[]>(this, MAPPINGS) ?? [];
  }

  /** HOOKS_HEARTBEAT_EVERY in ms; 0: the heartbeat runs on demand only. */
  get hooksHeartbeatEveryMs(): number {
    const match = /^(\d+)([smh])$/.exec(this.HOOKS_HEARTBEAT_EVERY);
    if (!match) return 0;
    return Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 's' | 'm' | 'h'];
  }
}

/** What the hooks read of the other slices: the agent they wake, and the chat gateway's token. */
type HooksReads = HooksConfig &
  Pick<AgentConfig, 'LLM_API_KEY' | 'AGENT_ENABLED' | 'LLM_ALLOWED_MODELS'> &
  Pick<ChatConfig, 'CHAT_GATEWAY_TOKEN'>;

export const hooksSlice = configSlice({
  name: 'hooks',
  schema: HooksConfig,
  check: (env: HooksReads) => (env.HOOKS_ENABLED === true ? hooksProblems(env) : []),
});

/** What HOOKS_ENABLED needs; the mappings are read (and kept on `env`) only then. */
function hooksProblems(env: HooksReads): string[] {
  const problems: string[] = [];
  if (!env.HOOKS_TOKEN) {
    problems.push('  HOOKS_TOKEN: required when HOOKS_ENABLED=true (at least 32 characters)');
  } else if (env.HOOKS_TOKEN === env.CHAT_GATEWAY_TOKEN) {
    problems.push('  HOOKS_TOKEN: must differ from CHAT_GATEWAY_TOKEN');
  }
  if (!agentEnabled(env)) {
    problems.push('  HOOKS_ENABLED: needs the agent (LLM_API_KEY set, AGENT_ENABLED not false)');
  }
  const read = readHookMappings(
    { json: env.HOOKS_MAPPINGS, file: env.HOOKS_MAPPINGS_FILE },
    Array.isArray(env.LLM_ALLOWED_MODELS) ? env.LLM_ALLOWED_MODELS : [],
  );
  keepParsed(env, MAPPINGS, read.mappings);
  return [...problems, ...read.problems, ...allowedOrganizationProblems(env, read.mappings)];
}

/** What the configuration itself names must be within HOOKS_ALLOWED_ORGANIZATIONS. */
function allowedOrganizationProblems(env: HooksConfig, mappings: readonly HookMapping[]): string[] {
  const allowed = env.HOOKS_ALLOWED_ORGANIZATIONS;
  if (!Array.isArray(allowed) || !allowed.length) return [];
  const outside = (id: string | undefined) =>
    id !== undefined && !allowed.includes(id.toLowerCase());
  const problems: string[] = [];
  if (outside(env.HOOKS_DEFAULT_ORGANIZATION))
    problems.push('  HOOKS_DEFAULT_ORGANIZATION: must be one of HOOKS_ALLOWED_ORGANIZATIONS');
  const variable = env.HOOKS_MAPPINGS_FILE !== undefined ? 'HOOKS_MAPPINGS_FILE' : 'HOOKS_MAPPINGS';
  mappings.forEach((mapping, index) => {
    if (outside(mapping.organization))
      problems.push(
        `  ${variable}: ${hookMappingLabel(mapping, index)}: organization ${mapping.organization} is not in HOOKS_ALLOWED_ORGANIZATIONS`,
      );
  });
  return problems;
}
