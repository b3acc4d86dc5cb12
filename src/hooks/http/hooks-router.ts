import { Logger, LoggerService } from '@nestjs/common';
import type { Request, Response } from 'express';
import { resolve } from 'node:path';
import { DomainError } from '../../common';
import { Env, HookPresetName, isUuid, readHookFields, trimSlashes } from '../../config';
import type { HookActions } from '../hook-actions';
import { presentedToken, safeHeaders, safeUrl, tokenMatches } from './auth';
import { readJsonBody } from './body';
import { applyMapping, findMapping, MappingFailed } from './mappings';
import { PRESETS } from './presets';
import { AGENT_FIELDS, HookCall, toCall, WAKE_FIELDS } from './requests';
import { loadMappings, LoadedMapping } from './transforms';

export interface HooksRouterOptions {
  env: Env;
  /** The agent side, asked for on each request: it may come up after the router (or not at all). */
  actions: () => HookActions | undefined;
  logger?: LoggerService;
}

type Reply = { status: number; body?: Record<string, unknown> };
const fail = (status: number, error: string): Reply => ({ status, body: { ok: false, error } });

/**
 * The gateway hooks (issue 24): mounted at HOOKS_PATH ahead of the app's body parsing and
 * session, it answers every request under it itself, in its own `{ok, ...}` shape. Mappings and
 * transforms are loaded here, so a bad transform stops the app's start-up.
 */
export function hooksRouter(options: HooksRouterOptions) {
  const { env } = options;
  const logger = options.logger ?? new Logger('Hooks');
  const presets = env.HOOKS_PRESETS.map((name) => [name, PRESETS[name as HookPresetName]] as const);
  const mappings = loadMappings(env.hookMappings, presets, resolve(env.HOOKS_TRANSFORMS_DIR));
  const route = new HookRoute(env, mappings, options.actions, logger);

  return (req: Request, res: Response) => {
    route
      .answer(req, res)
      .catch((err: unknown) => {
        logger.error(`hook ${req.method} ${req.path} failed: ${(err as Error)?.stack ?? err}`);
        return fail(500, 'internal error');
      })
      .then(({ status, body }) => {
        if (res.headersSent) return;
        if (body) res.status(status).json(body);
        else res.status(status).end();
      })
      .catch(() => res.destroy());
  };
}

class HookRoute {
  constructor(
    private readonly env: Env,
    private readonly mappings: readonly LoadedMapping[],
    private readonly actions: () => HookActions | undefined,
    private readonly logger: LoggerService,
  ) {}

  async answer(req: Request, res: Response): Promise<Reply> {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return fail(405, 'method not allowed');
    }
    const url = new URL(req.originalUrl, 'http://hooks.invalid');
    const { token, fromQuery } = presentedToken(req, url);
    if (fromQuery) {
      res.setHeader('Deprecation', 'true');
      this.logger.warn(
        `hook token in the query string is deprecated (send Authorization: Bearer): POST ${safeUrl(url).pathname}`,
      );
    }
    if (!tokenMatches(token, this.env.HOOKS_TOKEN)) return fail(401, 'unauthorized');
    const body = await readJsonBody(req, this.env.HOOKS_MAX_BODY_BYTES);
    if ('error' in body) return fail(body.status, body.error);
    const actions = this.actions();
    if (!actions) return fail(503, 'hooks are not available yet');

    const path = trimSlashes(req.path);
    const payload = body.payload;
    const resolved =
      path === 'wake' || path === 'agent'
        ? this.builtIn(path, payload)
        : await this.mapped(path, payload, req, url);
    if ('status' in resolved) return resolved;
    return this.run(actions, resolved.call, resolved.organization);
  }

  /** `/wake` and `/agent`: the body is the request. */
  private builtIn(kind: 'wake' | 'agent', payload: Record<string, unknown>) {
    const names = kind === 'wake' ? WAKE_FIELDS : AGENT_FIELDS;
    const checked = readHookFields(payload, this.env.LLM_ALLOWED_MODELS, names);
    if ('error' in checked) return fail(400, checked.error);
    const call = toCall(kind, checked.fields, kind);
    if ('error' in call) return fail(400, call.error);
    return { call, organization: [checked.fields.organization] };
  }

  /** `/<name>`: the first mapping that matches builds the request. */
  private async mapped(path: string, payload: Record<string, unknown>, req: Request, url: URL) {
    const mapping = path ? findMapping(this.mappings, path, payload) : undefined;
    if (!mapping) return fail(404, 'no hook mapping matches');
    // A foreign payload may hold an `organization` of its own kind (GitHub's is an object).
    const named = typeof payload.organization === 'string' ? payload.organization : undefined;
    if (named !== undefined && !isUuid(named)) return fail(400, 'organization must be a UUID');
    const query = Object.fromEntries(safeUrl(url).searchParams);
    const ctx = { payload, headers: safeHeaders(req), query, path, url: safeUrl(url).href };
    try {
      const outcome = await applyMapping(mapping, ctx, this.env.LLM_ALLOWED_MODELS);
      if ('skip' in outcome) return { status: 204 };
      if ('error' in outcome) return fail(400, outcome.error);
      const { fields } = outcome;
      const call = toCall(fields.action ?? mapping.action, fields, mapping.name ?? path);
      if ('error' in call) return fail(400, call.error);
      return { call, organization: [named, fields.organization] };
    } catch (err) {
      if (!(err instanceof MappingFailed)) throw err;
      this.logger.error(err.message);
      return fail(500, 'hook mapping failed');
    }
  }

  /** The first organization named (the payload's, the mapping's, the default), if it exists. */
  private async run(actions: HookActions, call: HookCall, named: (string | undefined)[]) {
    const organizationId = [...named, this.env.HOOKS_DEFAULT_ORGANIZATION]
      .find((id) => id !== undefined)
      ?.toLowerCase();
    if (!organizationId)
      return fail(400, 'organization is required (no HOOKS_DEFAULT_ORGANIZATION is set)');
    if (!(await actions.organizationExists(organizationId)))
      return fail(400, 'unknown organization');
    try {
      if (call.kind === 'wake') {
        await actions.wake({ ...call.request, organizationId });
        return { status: 200, body: { ok: true, mode: call.request.mode } };
      }
      const { runId } = await actions.agent({ ...call.request, organizationId });
      return { status: 202, body: { ok: true, runId } };
    } catch (err) {
      // The agent side's refusals (a limit, a bad model) keep their status and message.
      if (err instanceof DomainError && err.status < 500) return fail(err.status, err.message);
      throw err;
    }
  }
}
