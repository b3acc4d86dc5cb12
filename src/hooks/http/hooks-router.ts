import { Logger, LoggerService } from '@nestjs/common';
import type { Request, Response } from 'express';
import { resolve } from 'node:path';
import { clientIp, Clock, DomainError, TokenFailureThrottle } from '../../common';
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
  /** Failed token checks per client IP. */
  failures: TokenFailureThrottle;
  clock: Clock;
  logger?: LoggerService;
}

type Reply = { status: number; body?: Record<string, unknown>; headers?: Record<string, string> };
const fail = (status: number, error: string): Reply => ({ status, body: { ok: false, error } });

/** A refusal of ours (a limit, a bad model) in the hooks' shape, its headers kept. */
const refusal = (err: DomainError): Reply => ({
  ...fail(err.status, err.message),
  headers: err.details.headers,
});

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
  const route = new HookRoute(
    env,
    mappings,
    options.actions,
    options.failures,
    logger,
    options.clock,
  );

  return (req: Request, res: Response) => {
    route
      .answer(req, res)
      .catch((err: unknown) => {
        logger.error(`hook ${req.method} ${req.path} failed: ${(err as Error)?.stack ?? err}`);
        return fail(500, 'internal error');
      })
      .then(({ status, body, headers }) => {
        if (res.headersSent) return;
        for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
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
    private readonly failures: TokenFailureThrottle,
    private readonly logger: LoggerService,
    private readonly clock: Clock,
  ) {}

  async answer(req: Request, res: Response): Promise<Reply> {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return fail(405, 'method not allowed');
    }
    const url = new URL(req.originalUrl, 'http://hooks.invalid');
    const refused = await this.checkToken(req, res, url);
    if (refused) return refused;
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

  /**
   * The token, unless the client's address has used up its failed checks (429 then, a right token
   * too); a failure is counted. The deprecation of `?token=` is told only to a caller it admits:
   * anyone may send a query string.
   */
  private async checkToken(req: Request, res: Response, url: URL): Promise<Reply | undefined> {
    const ip = clientIp(req);
    try {
      await this.failures.assertAllowed(ip);
      const { token, fromQuery } = presentedToken(req, url);
      if (!tokenMatches(token, this.env.HOOKS_TOKEN)) {
        await this.failures.recordFailure(ip);
        return fail(401, 'unauthorized');
      }
      if (fromQuery) {
        res.setHeader('Deprecation', 'true');
        this.logger.warn(
          `hook token in the query string is deprecated (send Authorization: Bearer): POST ${safeUrl(url).pathname}`,
        );
      }
      return undefined;
    } catch (err) {
      if (err instanceof DomainError && err.status === 429) return refusal(err);
      throw err;
    }
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
      if ('error' in outcome) return fail(400, outcome.error);
      const { fields } = outcome;
      const call = toCall(fields.action ?? mapping.action, fields, mapping.name ?? path);
      if ('error' in call) return fail(400, call.error);
      // The mapping's own organization (its literal, or its transform's) is the operator's word
      // and wins; the payload, which anyone holding the token writes, chooses only otherwise.
      if (fields.organization !== undefined) return { call, organization: [fields.organization] };
      // A foreign payload may hold an `organization` of its own kind (GitHub's is an object).
      const named = typeof payload.organization === 'string' ? payload.organization : undefined;
      if (named !== undefined && !isUuid(named)) return fail(400, 'organization must be a UUID');
      return { call, organization: [named] };
    } catch (err) {
      if (!(err instanceof MappingFailed)) throw err;
      this.logger.error(err.message);
      return fail(500, 'hook mapping failed');
    }
  }

  /**
   * The first organization named (the request's, then the default), if hooks may reach it
   * (HOOKS_ALLOWED_ORGANIZATIONS, checked first: a refused id says nothing of whether it exists)
   * and it exists.
   */
  private async run(actions: HookActions, call: HookCall, named: (string | undefined)[]) {
    const organizationId = [...named, this.env.HOOKS_DEFAULT_ORGANIZATION]
      .find((id) => id !== undefined)
      ?.toLowerCase();
    if (!organizationId)
      return fail(400, 'organization is required (no HOOKS_DEFAULT_ORGANIZATION is set)');
    const allowed = this.env.HOOKS_ALLOWED_ORGANIZATIONS;
    if (allowed.length && !allowed.includes(organizationId))
      return fail(403, 'organization is not among HOOKS_ALLOWED_ORGANIZATIONS');
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
      // The agent side's refusals (a limit, a bad model) keep their status, message and headers.
      if (err instanceof DomainError && err.status < 500) return refusal(err);
      throw err;
    }
  }
}
