import { Injectable, type Type } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import type { Request } from 'express';
import { DomainError, InProcessRequests } from '../../common';
import type { InProcessResponse } from '../../common';
import { Env } from '../../config';
import { downloadRoutes } from './download-routes';
import { ReadQuery } from './query.dto';

/** Reads run at most this many at a time: a batch of 20 does not take 20 connections at once. */
export const QUERY_CONCURRENCY = 4;

export interface QueryResult {
  status: number;
  body: unknown;
}

/**
 * `POST /v1/query`: several GET reads of this API in one request. Each runs through the whole
 * request path in process (`InProcessRequests`: session, guards, validation), with the caller's
 * own session, so each answers exactly what the caller would get asking for it alone. Its
 * answers are held in memory until all are done, so only JSON routes are read (a download or
 * export is refused before any read runs), at most `QUERY_CONCURRENCY` at a time, and their bytes
 * add up to at most QUERY_MAX_RESPONSE_BYTES (413 beyond, and no further read is started).
 */
@Injectable()
export class QueryService {
  private downloads?: RegExp[];

  constructor(
    private readonly requests: InProcessRequests,
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
      queries.map((q, i): [string, QueryResult] => [
        q.id,
        { status: answers[i].status, body: answers[i].body },
      ]),
    );
    return { results };
  }

  /**
   * The answers of the reads, `QUERY_CONCURRENCY` at a time. Once their bytes pass the budget no
   * further read starts, and the query is refused whole (a partial batch would look complete).
   */
  private async answers(req: Request, urls: string[]): Promise<InProcessResponse[]> {
    const budget = this.env.QUERY_MAX_RESPONSE_BYTES;
    const answers: InProcessResponse[] = [];
    let next = 0;
    let bytes = 0;
    const worker = async () => {
      while (next < urls.length && bytes <= budget) {
        const i = next++;
        answers[i] = await this.requests.call(req, { method: 'GET', url: urls[i] });
        bytes += answers[i].bytes;
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
}
