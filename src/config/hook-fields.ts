/**
 * The fields of a gateway hook's action (issue 24), checked the same way wherever they come from:
 * the body of `/agent` or `/wake`, a mapping's literal values (at start-up), a transform's result.
 * Pure, and here rather than in src/hooks because configuration imports nothing of the service.
 */

export const HOOK_WAKE_MODES = ['now', 'next-heartbeat'] as const;
export const HOOK_CHANNELS = ['last', 'chat'] as const;
export const HOOK_THINKING = ['low', 'medium', 'high'] as const;
export const HOOK_ACTION_KINDS = ['agent', 'wake'] as const;

/** The bounds of `timeoutSeconds` (after flooring), and its default. */
export const HOOK_TIMEOUT_SECONDS = { min: 1, max: 600, default: 120 } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A channel name of the messaging server (as CHAT_DEFAULT_CHANNELS). */
const CHANNEL_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** The optional fields of an action; `text` and `message` are the wake's and the turn's text. */
export interface HookFields {
  action?: (typeof HOOK_ACTION_KINDS)[number];
  text?: string;
  message?: string;
  name?: string;
  sessionKey?: string;
  wakeMode?: (typeof HOOK_WAKE_MODES)[number];
  /** `/wake`'s name of `wakeMode`. */
  mode?: (typeof HOOK_WAKE_MODES)[number];
  deliver?: boolean;
  channel?: (typeof HOOK_CHANNELS)[number];
  to?: string;
  model?: string;
  thinking?: (typeof HOOK_THINKING)[number];
  timeoutSeconds?: number;
  organization?: string;
}

type Checked = { value: unknown } | { error: string };
type Check = (name: string, value: unknown, allowedModels: readonly string[]) => Checked;

const shown = (value: unknown) => JSON.stringify(value) ?? String(value);

const text =
  (max: number): Check =>
  (name, value) =>
    typeof value === 'string' && value.trim() !== '' && value.length <= max
      ? { value }
      : { error: `${name} must be a non-empty string of at most ${max} characters` };

const oneOf =
  (values: readonly string[]): Check =>
  (name, value) =>
    typeof value === 'string' && values.includes(value)
      ? { value }
      : { error: `${name} must be ${values.join(' or ')} (got ${shown(value)})` };

const CHECKS: Record<keyof HookFields, Check> = {
  action: oneOf(HOOK_ACTION_KINDS),
  // The texts' size is bounded by the body's (HOOKS_MAX_BODY_BYTES).
  text: text(Number.MAX_SAFE_INTEGER),
  message: text(Number.MAX_SAFE_INTEGER),
  name: text(100),
  sessionKey: text(200),
  wakeMode: oneOf(HOOK_WAKE_MODES),
  mode: oneOf(HOOK_WAKE_MODES),
  deliver: (name, value) =>
    typeof value === 'boolean' ? { value } : { error: `${name} must be true or false` },
  channel: oneOf(HOOK_CHANNELS),
  to: (name, value) =>
    typeof value === 'string' && CHANNEL_NAME.test(value)
      ? { value }
      : { error: `${name} must be a channel name (lower case, digits, - and _)` },
  model: (name, value, allowed) => {
    if (typeof value !== 'string' || !/^\S{1,200}$/.test(value))
      return { error: `${name} must be a model id such as claude-sonnet-4-6` };
    return allowed.length && !allowed.includes(value)
      ? { error: `${name} must be one of LLM_ALLOWED_MODELS (${allowed.join(', ')})` }
      : { value };
  },
  thinking: oneOf(HOOK_THINKING),
  timeoutSeconds: (name, value) => {
    const { min, max } = HOOK_TIMEOUT_SECONDS;
    const seconds = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : NaN;
    return seconds >= min && seconds <= max
      ? { value: seconds }
      : { error: `${name} must be a number of seconds from ${min} to ${max}` };
  },
  organization: (name, value) =>
    typeof value === 'string' && UUID.test(value)
      ? { value: value.toLowerCase() }
      : { error: `${name} must be a UUID` },
};

export const HOOK_FIELD_NAMES = Object.keys(CHECKS) as (keyof HookFields)[];

/**
 * The fields of `input` among `names` (absent or `undefined` ones left out), checked and
 * normalized (`timeoutSeconds` floored, UUIDs in lower case); the first bad one is the error.
 * A model outside `allowedModels` is refused unless that list is empty.
 */
export function readHookFields(
  input: Record<string, unknown>,
  allowedModels: readonly string[],
  names: readonly (keyof HookFields)[] = HOOK_FIELD_NAMES,
): { fields: HookFields } | { error: string } {
  const fields: Record<string, unknown> = {};
  for (const name of names) {
    if (!Object.hasOwn(input, name) || input[name] === undefined) continue;
    const checked = CHECKS[name](name, input[name], allowedModels);
    if ('error' in checked) return checked;
    fields[name] = checked.value;
  }
  return { fields: fields as HookFields };
}

export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value);
