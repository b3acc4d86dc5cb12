import { HOOK_FIELD_NAMES, HOOK_TIMEOUT_SECONDS, HookFields } from '../../config';
import type { AgentHookRequest, WakeRequest } from '../hook-actions';

/** What a hook asks of the agent side, before its organization is known. */
export type HookCall =
  | { kind: 'wake'; request: Omit<WakeRequest, 'organizationId'> }
  | { kind: 'agent'; request: Omit<AgentHookRequest, 'organizationId'> };

/** The fields `/wake` and `/agent` read from their body (others are ignored). */
export const WAKE_FIELDS = ['text', 'mode', 'organization'] as const;
export const AGENT_FIELDS = HOOK_FIELD_NAMES.filter(
  (name) => name !== 'action' && name !== 'text' && name !== 'mode',
);

const filled = (text?: string) => (text !== undefined && text.trim() !== '' ? text : undefined);

/** Checked fields → the request with its defaults; the 400's message when the text is missing. */
export function toCall(
  kind: 'wake' | 'agent',
  fields: HookFields,
  source: string,
): HookCall | { error: string } {
  if (kind === 'wake') {
    const text = filled(fields.text);
    if (!text) return { error: 'text must be a non-empty string' };
    return { kind, request: { text, mode: fields.mode ?? fields.wakeMode ?? 'now', source } };
  }
  const message = filled(fields.message);
  if (!message) return { error: 'message must be a non-empty string' };
  const { sessionKey, to, model, thinking } = fields;
  return {
    kind,
    request: {
      message,
      name: fields.name ?? 'Hook',
      wakeMode: fields.wakeMode ?? fields.mode ?? 'now',
      deliver: fields.deliver ?? true,
      channel: fields.channel ?? 'last',
      timeoutSeconds: fields.timeoutSeconds ?? HOOK_TIMEOUT_SECONDS.default,
      ...(sessionKey !== undefined && { sessionKey }),
      ...(to !== undefined && { to }),
      ...(model !== undefined && { model }),
      ...(thinking !== undefined && { thinking }),
    },
  };
}
