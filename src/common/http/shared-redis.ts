import type Redis from 'ioredis';

/**
 * What common's counters shared by every instance (upload slots, the request rate limit) need of
 * Redis: a client for the request path (fails fast while Redis is down) and the prefix of every
 * key. Common imports no other module: the redis module provides it (`RedisConnections`).
 */
export interface SharedRedis {
  session(): Redis;
  readonly prefix: string;
}

export const SHARED_REDIS = Symbol('SHARED_REDIS');
