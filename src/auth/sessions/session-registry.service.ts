import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { Env } from '../../config';
import { RedisConnections } from '../../redis';

/**
 * Which sessions each user has, as a Redis set of session ids, so that a password change can end
 * all the others. Session data itself stays where express-session keeps it
 * (`<prefix>sess:<id>`); ids of sessions that expired on their own are harmless here.
 */
@Injectable()
export class SessionRegistry implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly ttlSeconds: number;

  constructor(connections: RedisConnections, env: Env) {
    this.redis = connections.session();
    this.prefix = connections.prefix;
    this.ttlSeconds = Math.ceil(env.API_SESSION_MAX_AGE / 1000);
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  sessionKey(sessionId: string) {
    return `${this.prefix}sess:${sessionId}`;
  }

  private userKey(userId: string) {
    return `${this.prefix}user-sessions:${userId}`;
  }

  async add(userId: string, sessionId: string): Promise<void> {
    await this.redis
      .multi()
      .sadd(this.userKey(userId), sessionId)
      .expire(this.userKey(userId), this.ttlSeconds)
      .exec();
  }

  async remove(userId: string, sessionId: string): Promise<void> {
    await this.redis.srem(this.userKey(userId), sessionId);
  }

  /** Deletes every session of the user except `keep`; returns how many were ended. */
  async endAllExcept(userId: string, keep?: string): Promise<number> {
    const ids = (await this.redis.smembers(this.userKey(userId))).filter((id) => id !== keep);
    if (!ids.length) return 0;
    // One key per command: the sessions and the user's set may sit in different slots of a Redis
    // Cluster. The sessions go first: an id left in the set after a failure is harmless (above).
    await Promise.all(ids.map((id) => this.redis.del(this.sessionKey(id))));
    await this.redis.srem(this.userKey(userId), ...ids);
    return ids.length;
  }
}
