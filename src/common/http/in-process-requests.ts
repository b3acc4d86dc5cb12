import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request } from 'express';
import { DispatchFunc, inject } from 'light-my-request';
import { pinOrganization } from './organization-pin';

export type InProcessMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request of this API to run in process: `url` is the path and query, `body` sent as JSON. */
export interface InProcessRequest {
  method: InProcessMethod;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Pins the request to this organization (`pinOrganization`): any other one answers 404. */
  organization?: string;
}

const IN_PROCESS = Symbol('in-process');

/**
 * Whether the request is one of `InProcessRequests`: part of a request that already counted
 * against the request rate limit (`requestRateLimit`), so not counted again.
 */
export const isInProcess = (req: Request): boolean =>
  (req as Request & { [IN_PROCESS]?: true })[IN_PROCESS] === true;

/** Carries a pin from `callAs` to the dispatched request, where it becomes the request's own. */
const PIN_HEADER = 'x-in-process-organization-pin';

/** Its answer: `body` parsed when JSON (null when empty), `bytes` the size of the raw body. */
export interface InProcessResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  bytes: number;
}

/**
 * Who an in-process request runs as: the `Cookie` header holding the session, and the request id
 * and client IP of the request it is made for (when there is one).
 */
export interface InProcessCaller {
  cookie: string;
  requestId?: string;
  ip?: string;
}

/** Who a request's in-process requests run as: its session cookie, request id and IP. */
export function inProcessCallerOf(req: Request): InProcessCaller {
  return {
    cookie: req.get('cookie') ?? '',
    // The id the request-id middleware settled on, so that both requests log under one id.
    requestId: (req as Request & { id?: string }).id ?? req.get('x-request-id'),
    ip: req.ip,
  };
}

/** What the dispatcher needs of the Express app (`handle` alters the prototypes of req and res). */
interface ExpressApp {
  request: object;
  response: object;
  handle(req: unknown, res: unknown): void;
}

/**
 * Requests of this API run in process, through the whole request path (session, guards,
 * validation, filters) as the caller: each answers exactly what the caller would get sending it.
 * The caller's session cookie, request id and IP go with it; nothing else of the caller's
 * request does, so a write carries no `Origin` or `Sec-Fetch-Site` and passes the CsrfGuard as
 * any non-browser client's JSON request does. The caller's identity cannot be overridden by
 * `headers`.
 */
@Injectable()
export class InProcessRequests {
  private dispatch?: DispatchFunc;

  constructor(private readonly adapter: HttpAdapterHost) {}

  /** Runs `request` with the session of the caller's request. */
  call(caller: Request, request: InProcessRequest): Promise<InProcessResponse> {
    return this.callAs(inProcessCallerOf(caller), request);
  }

  /** Runs `request` as the session of the `caller.cookie` header (a request made later). */
  async callAs(caller: InProcessCaller, request: InProcessRequest): Promise<InProcessResponse> {
    const dispatch = (this.dispatch ??= this.dispatcher());
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      headers[name.toLowerCase()] = value;
    }
    const hasBody = request.body !== undefined;
    if (hasBody) headers['content-type'] = 'application/json';
    delete headers[PIN_HEADER];
    if (request.organization) headers[PIN_HEADER] = request.organization;
    headers.cookie = caller.cookie;
    headers['x-request-id'] = caller.requestId ?? '';
    const answer = await inject(dispatch, {
      method: request.method,
      url: request.url,
      headers,
      ...(hasBody ? { payload: JSON.stringify(request.body) } : {}),
      ...(caller.ip ? { remoteAddress: caller.ip } : {}),
    });
    const json = /json/.test(String(answer.headers['content-type'] ?? ''));
    return {
      status: answer.statusCode,
      headers: Object.fromEntries(
        Object.entries(answer.headers).map(([name, value]) => [
          name,
          typeof value === 'number' ? String(value) : value,
        ]),
      ),
      body: answer.payload ? (json ? JSON.parse(answer.payload) : answer.payload) : null,
      bytes: answer.rawPayload.length,
    };
  }

  /**
   * The app as light-my-request may call it. Handed the Express app itself, light-my-request
   * re-parents Express's shared request and response prototypes onto its fakes, for good: every
   * later real request of the server then fails. So it gets a function running the app's own
   * `handle` with prototypes of its own: Express's methods over light-my-request's.
   *
   * Each fake request also says what a real one does once its body is read: `complete`, on a
   * `readable` socket. The body parsers (on-finished) take such a request, no longer `readable`,
   * as read; without it Nest's JSON parser, after the app's text parser, reads the spent stream
   * again and the request fails (500 "stream is not readable").
   */
  private dispatcher(): DispatchFunc {
    const app = this.adapter.httpAdapter.getInstance<ExpressApp>();
    let injected: ExpressApp | undefined;
    return (req, res) => {
      injected ??= Object.assign(Object.create(app) as ExpressApp, {
        request: over(Object.getPrototypeOf(req) as object, app.request),
        response: over(Object.getPrototypeOf(res) as object, app.response),
      });
      const pin = req.headers[PIN_HEADER];
      delete req.headers[PIN_HEADER];
      if (typeof pin === 'string') pinOrganization(req, pin);
      Object.assign(req, { complete: true, [IN_PROCESS]: true });
      Object.assign(req.socket, { readable: true });
      injected.handle(req, res);
    };
  }
}

/** A prototype inheriting from `base` with the properties of the Express `proto` and its parent. */
function over(base: object, proto: object): object {
  const combined = Object.create(base) as object;
  for (const source of [Object.getPrototypeOf(proto) as object, proto]) {
    for (const key of Reflect.ownKeys(source)) {
      Object.defineProperty(combined, key, Reflect.getOwnPropertyDescriptor(source, key)!);
    }
  }
  return combined;
}
