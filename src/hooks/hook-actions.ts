/**
 * What the gateway hooks' HTTP layer asks of the agent side (issue 24). The routes validate and
 * resolve a request (token, body, mapping, templates, transform, organization), then call one
 * of these; the implementation records system events, queues heartbeats and hook runs.
 */

export type WakeMode = 'now' | 'next-heartbeat';
export type Thinking = 'low' | 'medium' | 'high';

/** `/wake`, or a mapping with `action: wake`: a system event for the main conversation. */
export interface WakeRequest {
  organizationId: string;
  text: string;
  mode: WakeMode;
  /** What sent it: `wake`, or the mapping's name / sub-path. */
  source: string;
}

/** `/agent`, or a mapping with `action: agent`: an isolated agent turn. */
export interface AgentHookRequest {
  organizationId: string;
  message: string;
  /** Shown in the summary `Hook <name>: …`; default `Hook`. */
  name: string;
  /** The hook conversation's key; default `hook:<uuid>`. */
  sessionKey?: string;
  wakeMode: WakeMode;
  deliver: boolean;
  channel: 'last' | 'chat';
  /** A channel name of the organization's team. */
  to?: string;
  model?: string;
  thinking?: Thinking;
  /** 1–600. */
  timeoutSeconds: number;
}

export interface HookActions {
  /** Whether the organization exists (and is not deleted). */
  organizationExists(organizationId: string): Promise<boolean>;
  wake(request: WakeRequest): Promise<void>;
  agent(request: AgentHookRequest): Promise<{ runId: string }>;
}

/** The Nest provider token of the HookActions implementation. */
export const HOOK_ACTIONS = Symbol('HOOK_ACTIONS');
