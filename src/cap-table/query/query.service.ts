import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request } from 'express';
import { DispatchFunc, inject } from 'light-my-request';
import { DomainError } from '../../common';
import { ReadQuery } from './query.dto';

export interface QueryResult {
  status: number;
  body: unknown;
}

/** What the dispatcher needs of the Express app (`handle` alters the prototypes of req and res). */
interface ExpressApp {
  request: object;
  response: object;
  handle(req: unknown, res: unknown): void;
}

/**
 * `POST /v1/query`: several GET reads of this API in one request. Each runs through the whole
 * request path in process (session, guards, validation), with the caller's own session, so each
 * answers exactly what the caller would get asking for it alone.
 */
@Injectable()
export class QueryService {
  private dispatch?: DispatchFunc;

  constructor(private readonly adapter: HttpAdapterHost) {}

  async run(req: Request, queries: ReadQuery[]): Promise<{ results: Record<string, QueryResult> }> {
    const ids = queries.map((q) => q.id);
    if (new Set(ids).size !== ids.length) {
      throw DomainError.badRequest('queries: every id must be unique', {
        body: { field: 'queries' },
      });
    }
    // The path as the request will be routed: `.`, `..` and their %2e spellings resolved, `\` a `/`.
    const urls = queries.map((q) => {
      const url = new URL(q.path, 'http://localhost');
      return url.pathname + url.search;
    });
    const refused = queries.findIndex(
      (_q, i) => !urls[i].startsWith('/v1/') || /^\/v1\/query(\/|\?|$)/i.test(urls[i]),
    );
    if (refused >= 0) {
      throw DomainError.badRequest(`queries: ${queries[refused].id} reads no path of this kind`);
    }
    const dispatch = (this.dispatch ??= this.dispatcher());
    const answers = await Promise.all(
      urls.map((url) =>
        inject(dispatch, {
          method: 'GET',
          url,
          headers: {
            cookie: req.get('cookie') ?? '',
            'x-request-id': `${String(req.get('x-request-id') ?? '')}`,
          },
        }),
      ),
    );
    // Keyed by the caller's ids, which may be `__proto__`: own properties only.
    const results = Object.fromEntries(
      queries.map((q, i): [string, QueryResult] => {
        const answer = answers[i];
        const json = /json/.test(String(answer.headers['content-type'] ?? ''));
        return [
          q.id,
          {
            status: answer.statusCode,
            body: answer.payload ? (json ? JSON.parse(answer.payload) : answer.payload) : null,
          },
        ];
      }),
    );
    return { results };
  }

  /**
   * The app as light-my-request may call it. Handed the Express app itself, light-my-request
   * re-parents Express's shared request and response prototypes onto its fakes, for good: every
   * later real request of the server then fails. So it gets a function running the app's own
   * `handle` with prototypes of its own: Express's methods over light-my-request's.
   */
  private dispatcher(): DispatchFunc {
    const app = this.adapter.httpAdapter.getInstance<ExpressApp>();
    let injected: ExpressApp | undefined;
    return (req, res) => {
      injected ??= Object.assign(Object.create(app) as ExpressApp, {
        request: over(Object.getPrototypeOf(req) as object, app.request),
        response: over(Object.getPrototypeOf(res) as object, app.response),
      });
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
