import { createHash } from 'node:crypto';
import { Injectable, SetMetadata } from '@nestjs/common';
import type { Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { Env } from '../../config';
import { Clock } from '../time/clock';
import type { AccessContext } from './access-context';

/** What a cached list's answer depends on, declared once per list route (`@CachedList`). */
export interface ListSpec {
  /** Names the list in its cache key and ETag (one per route). */
  list: string;
  /**
   * Every table the answer reads (`['member']`): the database bumps a table's version at the
   * commit of each write to it, for each organization written, once the table is tracked
   * (migration TableVersions, `track_table_versions`). A test holds each list to this: every
   * table is tracked, and the list's SQL reads no other.
   */
  tables: readonly string[];
  /** What else the answer depends on, as a key part (today's date for figures that vest). */
  varies?: (clock: Clock) => string;
  /**
   * Who sees this list as it is: `all` for everyone whose role reads the whole list, or a key of
   * the caller (their user id) when the answer is theirs alone (a self-scoped list).
   */
  audience: (access: AccessContext) => string;
}

const DEFINED = new Set<ListSpec>();

/**
 * A cached list's spec, known to `definedLists()`: a test holds every defined list to its tables
 * (each tracked by the database; a list's SQL reading no other).
 */
export function defineList(spec: ListSpec): ListSpec {
  DEFINED.add(spec);
  return spec;
}

/** Every list spec defined so far (in the modules loaded). */
export const definedLists = (): readonly ListSpec[] => [...DEFINED];

export const CACHED_LIST_KEY = 'ledgerline:cachedList';

/** The OpenAPI description of a cached list's `ETag` header. */
export const CACHED_LIST_HEADERS = {
  ETag: {
    description:
      'The version of this list for this caller (with the list cache on, `LIST_CACHE`): send it as `If-None-Match`',
    schema: { type: 'string' },
  },
};

/**
 * Marks a list route answered through ListResponder with this spec, so that the conditional-read
 * shortcut (see conditional-list.middleware.ts) can answer its `If-None-Match` with 304 too.
 */
export const CachedList = (spec: ListSpec) => SetMetadata(CACHED_LIST_KEY, spec);

/**
 * Answers hot list reads, correct by construction: the answer is keyed by the organization, the
 * versions of the tables it reads (read with the access decision, bumped by the database at the
 * commit of every write to them), the caller's audience and the query string. A strong ETag is made
 * from that key, so `If-None-Match` gets 304 without any work; the JSON is cached in process
 * (bounded LRU), so a repeated read costs no query. A write changes a version, hence the key, on
 * every instance at once; access itself is never cached.
 */
@Injectable()
export class ListResponder {
  readonly enabled: boolean;
  private readonly cache: LRUCache<string, Buffer>;

  constructor(
    env: Env,
    private readonly clock: Clock,
  ) {
    this.enabled = env.LIST_CACHE === 'on';
    this.cache = new LRUCache<string, Buffer>({
      maxSize: env.LIST_CACHE_MAX_MB * 1024 * 1024,
      sizeCalculation: (body) => body.length || 1,
    });
  }

  async send(
    req: Request,
    res: Response,
    access: AccessContext,
    spec: ListSpec,
    load: () => Promise<string>,
  ): Promise<void> {
    res.type('application/json');
    if (!this.enabled) {
      res.send(await load());
      return;
    }
    const { key, etag } = this.version(req, access, spec);
    if (this.notModified(req, res, etag)) return;
    let body = this.cache.get(key);
    if (!body) {
      body = Buffer.from(await load(), 'utf8');
      this.cache.set(key, body);
    }
    res.send(body);
  }

  /**
   * Sets the list's ETag and caching headers; when the request's `If-None-Match` is that ETag,
   * answers 304 and says so (the caller sends nothing more).
   */
  notModified(req: Request, res: Response, etag: string): boolean {
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    if (req.get('if-none-match') !== etag) return false;
    res.status(304).end();
    return true;
  }

  /** The cache key and strong ETag of the list as this caller sees it now. */
  version(req: Request, access: AccessContext, spec: ListSpec): { key: string; etag: string } {
    const versions = spec.tables.map((r) => `${r}:${access.versions[r] ?? '0'}`).join(',');
    const url = req.originalUrl;
    const query = url.includes('?') ? url.slice(url.indexOf('?')) : '';
    const varies = spec.varies?.(this.clock) ?? '';
    const key = `${access.organizationId}|${spec.list}|${versions}|${varies}|${spec.audience(access)}|${query}`;
    return { key, etag: `"${createHash('sha1').update(key).digest('base64url')}"` };
  }
}
