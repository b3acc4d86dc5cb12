import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { Env } from '../../config';
import type { AccessContext } from './access-context';

export interface ListSpec {
  /** The resources whose versions the list depends on (`['member']`). */
  resources: string[];
  /**
   * Who sees this list as it is: `all` for everyone whose role reads the whole list, or a key of
   * the caller (their user id) when the answer is theirs alone (a self-scoped list).
   */
  audience: string;
}

/**
 * Answers hot list reads, correct by construction: the answer is keyed by the organization, the
 * versions of the resources it depends on (read with the access decision, bumped in the
 * transaction of every write), the caller's audience and the query string. A strong ETag is made
 * from that key, so `If-None-Match` gets 304 without any work; the JSON is cached in process
 * (bounded LRU), so a repeated read costs no query. A write changes a version, hence the key, on
 * every instance at once; access itself is never cached.
 */
@Injectable()
export class ListResponder {
  private readonly enabled: boolean;
  private readonly cache: LRUCache<string, Buffer>;

  constructor(env: Env) {
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
    const versions = spec.resources.map((r) => `${r}:${access.versions[r] ?? '0'}`).join(',');
    const query = req.originalUrl.includes('?')
      ? req.originalUrl.slice(req.originalUrl.indexOf('?'))
      : '';
    const key = `${access.organizationId}|${req.route?.path}|${versions}|${spec.audience}|${query}`;
    const etag = `"${createHash('sha1').update(key).digest('base64url')}"`;
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    if (req.get('if-none-match') === etag) {
      res.status(304).end();
      return;
    }
    let body = this.cache.get(key);
    if (!body) {
      body = Buffer.from(await load(), 'utf8');
      this.cache.set(key, body);
    }
    res.send(body);
  }
}
