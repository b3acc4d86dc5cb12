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
    await this.redis
      .multi()
      .del(...ids.map((id) => this.sessionKey(id)))
      .srem(this.userKey(userId), ...ids)
      .exec();
    return ids.length;
  }
}
