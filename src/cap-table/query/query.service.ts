import { Injectable, type Type } from '@nestjs/common';
import { DiscoveryService, HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { Request } from 'express';
import { DispatchFunc, inject, type Response } from 'light-my-request';
import { DomainError } from '../../common';
import { Env } from '../../config';
import { downloadRoutes } from './download-routes';
import { ReadQuery } from './query.dto';

/** Reads run at most this many at a time: a batch of 20 does not take 20 connections at once. */
export const QUERY_CONCURRENCY = 4;

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
 * answers exactly what the caller would get asking for it alone. Its answers are held in memory
 * until all are done, so only JSON routes are read (a download or export is refused before any
 * read runs), at most `QUERY_CONCURRENCY` at a time, and their bytes add up to at most
 * QUERY_MAX_RESPONSE_BYTES (413 beyond, and no further read is started).
 */
@Injectable()
export class QueryService {
  private dispatch?: DispatchFunc;
  private downloads?: RegExp[];

  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly modules: ModuleRef,
    private readonly env: Env,
  ) {}

  async run(req: Request, queries: ReadQuery[]): Promise<{ results: Record<string, QueryResult> }> {
    const ids = queries.map((q) => q.id);
    if (new Set(ids).size !== ids.length) {
      throw DomainError.badRequest('queries: every id must be unique', {
        body: { field: 'queries' },
      });
    }
    // The path as the request will be routed: `.`, `..` and their %2e spellings resolved, `\` a `/`.
    const paths = queries.map((q) => new URL(q.path, 'http://localhost'));
    const urls = paths.map((url) => url.pathname + url.search);
    const refused = queries.findIndex(
      (_q, i) => !urls[i].startsWith('/v1/') || /^\/v1\/query(\/|\?|$)/i.test(urls[i]),
    );
    if (refused >= 0) {
      throw DomainError.badRequest(`queries: ${queries[refused].id} reads no path of this kind`);
    }
    const downloads = (this.downloads ??= this.downloadRoutes());
    const download = paths.findIndex((url) => downloads.some((p) => p.test(url.pathname)));
    if (download >= 0) {
      throw DomainError.badRequest(
        `queries: ${queries[download].id} reads a download or export, not JSON: ask for it alone`,
        { body: { field: 'queries' } },
      );
    }
    const answers = await this.answers(req, urls);
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
   * The answers of the reads, `QUERY_CONCURRENCY` at a time. Once their bytes pass the budget no
   * further read starts, and the query is refused whole (a partial batch would look complete).
   */
  private async answers(req: Request, urls: string[]): Promise<Response[]> {
    const dispatch = (this.dispatch ??= this.dispatcher());
    const budget = this.env.QUERY_MAX_RESPONSE_BYTES;
    const answers: Response[] = [];
    let next = 0;
    let bytes = 0;
    const worker = async () => {
      while (next < urls.length && bytes <= budget) {
        const i = next++;
        answers[i] = await inject(dispatch, {
          method: 'GET',
          url: urls[i],
          headers: {
            cookie: req.get('cookie') ?? '',
            'x-request-id': `${String(req.get('x-request-id') ?? '')}`,
          },
        });
        bytes += answers[i].rawPayload.length;
      }
    };
    await Promise.all(Array.from({ length: Math.min(QUERY_CONCURRENCY, urls.length) }, worker));
    if (bytes > budget) {
      throw DomainError.keyed(
        'queryResponseTooLarge',
        `the answers of this query exceed ${budget} bytes: ask for fewer or smaller reads`,
      );
    }
    return answers;
  }

  /** The download and export routes of the app (resolved once, from the controllers' metadata). */
  private downloadRoutes(): RegExp[] {
    const discovery = this.modules.get(DiscoveryService, { strict: false });
    return downloadRoutes(
      discovery
        .getControllers()
        .filter((w) => w.instance && w.metatype)
        .map((w) => w.metatype as Type),
    );
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
