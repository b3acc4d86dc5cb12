import { RedisStore } from 'connect-redis';
import type { SessionData } from 'express-session';
import type Redis from 'ioredis';

type Callback<T> = (err: unknown, data?: T | null) => void;

/**
 * connect-redis with the rolling expiry folded into the read: every request reads its session
 * with `GETEX key PX <maxAge>`, which renews the expiry in the same command, so the `EXPIRE` that
 * express-session's `touch` would send at the end of the request is not needed. One Redis round
 * trip per request instead of two; the session still expires `maxAge` after its last request.
 */
export class RollingRedisStore extends RedisStore {
  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly maxAgeMs: number,
  ) {
    super({ client: redis, prefix, ttl: Math.ceil(maxAgeMs / 1000) });
  }

  async get(sid: string, cb?: Callback<SessionData>) {
    try {
      const data = await this.redis.getex(this.prefix + sid, 'PX', this.maxAgeMs);
      const session = data ? (JSON.parse(data) as SessionData) : null;
      return cb ? cb(null, session) : session;
    } catch (err) {
      if (cb) return cb(err, null);
      throw err;
    }
  }

  async touch(_sid: string, _session: SessionData, cb?: (err?: unknown) => void) {
    cb?.();
  }
}
