import { HOOK_FIELD_NAMES, HOOK_MAPPING_LITERALS, HookFields, readHookFields } from '../../config';
import { renderKey, renderTemplate, TemplateContext } from './templates';
import { LoadedMapping } from './transforms';

/** The first mapping whose `match` fits: the sub-path, and the payload's string `source`. */
export function findMapping(
  mappings: readonly LoadedMapping[],
  path: string,
  payload: Record<string, unknown>,
): LoadedMapping | undefined {
  const source = typeof payload.source === 'string' ? payload.source : undefined;
  return mappings.find(
    ({ match }) =>
      (match.path === undefined || match.path === path) &&
      (match.source === undefined || match.source === source),
  );
}

/** A transform threw or returned something that is not fields: the operator's code is at fault. */
export class MappingFailed extends Error {
  constructor(
    readonly label: string,
    reason: string,
  ) {
    super(`${label}: ${reason}`);
  }
}

export type MappingOutcome = { skip: true } | { fields: HookFields } | { error: string };

/**
 * The action's fields: the mapping's literals, its templates rendered, then whatever its
 * transform returns (checked like the `/agent` fields: a bad one is the 400's message).
 * `{ skip }` when the transform returns null.
 */
export async function applyMapping(
  mapping: LoadedMapping,
  ctx: TemplateContext & { url: string },
  allowedModels: readonly string[],
): Promise<MappingOutcome> {
  const render = (template?: string) =>
    template === undefined ? undefined : renderTemplate(template, ctx);
  const fields: HookFields = {
    ...Object.fromEntries(
      HOOK_MAPPING_LITERALS.filter((key) => key !== 'sessionKey').map((key) => [key, mapping[key]]),
    ),
    text: render(mapping.textTemplate),
    message: render(mapping.messageTemplate),
    // Without a key (a value missing from the payload) the run has a conversation of its own.
    sessionKey: mapping.sessionKey === undefined ? undefined : renderKey(mapping.sessionKey, ctx),
  };
  if (!mapping.run) return { fields };
  const result = await runTransform(mapping, ctx);
  if (result === null) return { skip: true };
  const checked = readHookFields(result, allowedModels);
  if ('error' in checked) return checked;
  return { fields: { ...fields, ...checked.fields } };
}

async function runTransform(
  mapping: LoadedMapping,
  { payload, headers, url, path }: TemplateContext & { url: string },
): Promise<Record<string, unknown> | null> {
  let result: unknown;
  try {
    result = await mapping.run!({ payload, headers, url, path });
  } catch (err) {
    throw new MappingFailed(mapping.label, `its transform threw: ${(err as Error)?.message}`);
  }
  if (result === null) return null;
  if (result === undefined) return {};
  if (typeof result !== 'object' || Array.isArray(result))
    throw new MappingFailed(mapping.label, 'its transform returned neither an object nor null');
  const unknown = Object.keys(result).filter(
    (key) => !(HOOK_FIELD_NAMES as string[]).includes(key),
  );
  if (unknown.length)
    throw new MappingFailed(mapping.label, `its transform returned unknown keys ${unknown}`);
  return result as Record<string, unknown>;
}
