import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { Request, Response } from 'express';
import { resolve } from 'node:path';
import { Clock, DomainError } from '../../common';
import { Env, HookPresetName, isUuid, readHookFields, trimSlashes } from '../../config';
import { HOOK_ACTIONS, HookActions } from '../hook-actions';
import { presentedToken, safeHeaders, safeUrl } from './auth';
import { readJsonBody } from './body';
import { applyMapping, findMapping, MappingFailed } from './mappings';
import { PRESETS } from './presets';
import { AGENT_FIELDS, HookCall, toCall, WAKE_FIELDS } from './requests';
import { loadMappings, LoadedMapping } from './transforms';

/** An answer in the hooks' own `{ok, ...}` shape. */
export type HookReply = {
  status: number;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
};
export const hookFailure = (status: number, error: string): HookReply => ({
  status,
  body: { ok: false, error },
});

/** A refusal of ours (a limit, a bad model) in the hooks' shape, its headers kept. */
export const hookRefusal = (err: DomainError): HookReply => ({
  ...hookFailure(err.status, err.message),
  headers: err.details.headers,
});

/**
 * What a gateway hook asks (issue 24), once the access guard has accepted its token: its body
 * (read here, within HOOKS_MAX_BODY_BYTES), `/wake`, `/agent` or the first mapping that matches,
 * the organization, then the agent side's `HookActions`. Mappings and transforms are loaded at
 * start-up, so a bad transform stops the app's start.
 */
@Injectable()
export class HookRequests implements OnModuleInit {
  private readonly logger = new Logger('Hooks');
  private mappings: readonly LoadedMapping[] = [];

  constructor(
    private readonly env: Env,
    @Inject(HOOK_ACTIONS) private readonly actions: HookActions,
    private readonly clock: Clock,
  ) {}

  onModuleInit() {
    const { env } = this;
    if (!env.HOOKS_ENABLED) return;
    const presets = env.HOOKS_PRESETS.map(
      (name) => [name, PRESETS[name as HookPresetName]] as const,
    );
    this.mappings = loadMappings(env.hookMappings, presets, resolve(env.HOOKS_TRANSFORMS_DIR));
  }

  async answer(req: Request, res: Response): Promise<HookReply> {
    const url = new URL(req.originalUrl, 'http://hooks.invalid');
    this.reportDeprecatedToken(res, url, req);
    const body = await readJsonBody(req, this.env.HOOKS_MAX_BODY_BYTES);
    if ('error' in body) return hookFailure(body.status, body.error);

    // The sub-path under HOOKS_PATH as sent: `/WAKE` is no `/wake` (it may be a mapping's).
    const path = trimSlashes(req.path.slice(this.env.HOOKS_PATH.length));
    const payload = body.payload;
    const resolved =
      path === 'wake' || path === 'agent'
        ? this.builtIn(path, payload)
        : await this.mapped(path, payload, req, url);
    if ('status' in resolved) return resolved;
    return this.run(resolved.call, resolved.organization);
  }

  /**
   * `?token=` is deprecated: told (`Deprecation: true`, a warning) only to a caller whose token
   * the guard accepted, as anyone may send a query string.
   */
  private reportDeprecatedToken(res: Response, url: URL, req: Request) {
    if (!presentedToken(req, url).fromQuery) return;
    res.setHeader('Deprecation', 'true');
    this.logger.warn(
      `hook token in the query string is deprecated (send Authorization: Bearer): POST ${safeUrl(url).pathname}`,
    );
  }

  /** `/wake` and `/agent`: the body is the request. */
  private builtIn(kind: 'wake' | 'agent', payload: Record<string, unknown>) {
    const names = kind === 'wake' ? WAKE_FIELDS : AGENT_FIELDS;
    const checked = readHookFields(payload, this.env.LLM_ALLOWED_MODELS, names);
    if ('error' in checked) return hookFailure(400, checked.error);
    const call = toCall(kind, checked.fields, kind);
    if ('error' in call) return hookFailure(400, call.error);
    return { call, organization: [checked.fields.organization] };
  }

  /** `/<name>`: the first mapping that matches builds the request. */
  private async mapped(path: string, payload: Record<string, unknown>, req: Request, url: URL) {
    const mapping = path ? findMapping(this.mappings, path, payload) : undefined;
    if (!mapping) return hookFailure(404, 'no hook mapping matches');
    const query = Object.fromEntries(safeUrl(url).searchParams);
    const ctx = {
      payload,
      headers: safeHeaders(req),
      query,
      path,
      url: safeUrl(url).href,
      now: this.clock.now(),
    };
    try {
      const outcome = await applyMapping(mapping, ctx, this.env.LLM_ALLOWED_MODELS);
      if ('skip' in outcome) return { status: 204 };
      if ('error' in outcome) return hookFailure(400, outcome.error);
      const { fields } = outcome;
      const call = toCall(fields.action ?? mapping.action, fields, mapping.name ?? path);
      if ('error' in call) return hookFailure(400, call.error);
      // The mapping's own organization (its literal, or its transform's) is the operator's word
      // and wins; the payload, which anyone holding the token writes, chooses only otherwise.
      if (fields.organization !== undefined) return { call, organization: [fields.organization] };
      // A foreign payload may hold an `organization` of its own kind (GitHub's is an object).
      const named = typeof payload.organization === 'string' ? payload.organization : undefined;
      if (named !== undefined && !isUuid(named))
        return hookFailure(400, 'organization must be a UUID');
      return { call, organization: [named] };
    } catch (err) {
      if (!(err instanceof MappingFailed)) throw err;
      this.logger.error(err.message);
      return hookFailure(500, 'hook mapping failed');
    }
  }

  /**
   * The first organization named (the request's, then the default), if hooks may reach it
   * (HOOKS_ALLOWED_ORGANIZATIONS, checked first: a refused id says nothing of whether it exists)
   * and it exists.
   */
  private async run(call: HookCall, named: (string | undefined)[]): Promise<HookReply> {
    const { actions } = this;
    const organizationId = [...named, this.env.HOOKS_DEFAULT_ORGANIZATION]
      .find((id) => id !== undefined)
      ?.toLowerCase();
    if (!organizationId)
      return hookFailure(400, 'organization is required (no HOOKS_DEFAULT_ORGANIZATION is set)');
    const allowed = this.env.HOOKS_ALLOWED_ORGANIZATIONS;
    if (allowed.length && !allowed.includes(organizationId))
      return hookFailure(403, 'organization is not among HOOKS_ALLOWED_ORGANIZATIONS');
    if (!(await actions.organizationExists(organizationId)))
      return hookFailure(400, 'unknown organization');
    try {
      if (call.kind === 'wake') {
        await actions.wake({ ...call.request, organizationId });
        return { status: 200, body: { ok: true, mode: call.request.mode } };
      }
      const { runId } = await actions.agent({ ...call.request, organizationId });
      return { status: 202, body: { ok: true, runId } };
    } catch (err) {
      // The agent side's refusals (a limit, a bad model) keep their status, message and headers.
      if (err instanceof DomainError && err.status < 500) return hookRefusal(err);
      throw err;
    }
  }
}
