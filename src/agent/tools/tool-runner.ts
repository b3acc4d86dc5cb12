import { Injectable } from '@nestjs/common';
import { InProcessCaller, InProcessRequests } from '../../common';
import { ToolDefinition } from './tool-catalogue';

/** Characters of a route's answer handed to the model; the rest is cut with a note. */
export const TOOL_OUTPUT_CHARS = 20_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ToolOutcome {
  ok: boolean;
  /** The route's status; 0 when the input could not make a request. */
  status: number;
  body: unknown;
  error?: string;
}

/** The route call a tool's input makes: the path's ids filled in, the rest its query or body. */
export function routeCall(
  tool: ToolDefinition,
  organizationId: string,
  input: Record<string, unknown>,
): { url: string; body?: Record<string, unknown> } | { error: string } {
  const rest: Record<string, unknown> = { ...input };
  delete rest.organization;
  let missing: string | undefined;
  const path = tool.path.replace(/\{([^}]+)\}/g, (_all, param: string) => {
    if (param === 'organization') return organizationId;
    const name = tool.ids?.[param] ?? param;
    const value = rest[name];
    delete rest[name];
    if (typeof value !== 'string' || !UUID.test(value)) {
      missing ??= name;
      return '';
    }
    return encodeURIComponent(value);
  });
  if (missing) return { error: `${missing} must be the id (a UUID) of a ${missing}` };
  if (tool.organizationIn) rest.organization = organizationId;
  if (tool.method === 'GET' || tool.method === 'DELETE') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(rest)) {
      if (value !== undefined && value !== null) query.set(key, String(value));
    }
    const search = query.toString();
    return { url: search ? `${path}?${search}` : path };
  }
  return { url: path, body: rest };
}

/**
 * Runs a tool: its route, in process, as the person asking (their session, the app's guards and
 * validation), pinned to the chat's organization so another organization's record id fails even
 * where the person could read it.
 */
@Injectable()
export class ToolRunner {
  constructor(private readonly requests: InProcessRequests) {}

  async run(
    caller: InProcessCaller,
    organizationId: string,
    tool: ToolDefinition,
    input: Record<string, unknown>,
  ): Promise<ToolOutcome> {
    const call = routeCall(tool, organizationId, input);
    if ('error' in call) return { ok: false, status: 0, body: null, error: call.error };
    const answer = await this.requests.callAs(caller, {
      method: tool.method,
      url: call.url,
      body: call.body,
      organization: organizationId,
    });
    const ok = answer.status >= 200 && answer.status < 300;
    return {
      ok,
      status: answer.status,
      body: answer.body,
      ...(ok ? {} : { error: errorText(answer.status, answer.body) }),
    };
  }
}

function errorText(status: number, body: unknown): string {
  const message = (body as { message?: unknown } | null)?.message;
  const text = Array.isArray(message) ? message.join('; ') : String(message ?? '');
  return `${status}${text ? `: ${text}` : ''}`;
}

/** A tool's answer as the model reads it: JSON, cut at TOOL_OUTPUT_CHARS. */
export function outputText(outcome: ToolOutcome): string {
  const json = JSON.stringify(outcome.ok ? outcome.body : { error: outcome.error });
  return json.length > TOOL_OUTPUT_CHARS
    ? `${json.slice(0, TOOL_OUTPUT_CHARS)}… [cut: the answer is ${json.length} characters; ask for less]`
    : json;
}
