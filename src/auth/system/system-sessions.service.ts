import { randomBytes } from 'node:crypto';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { sign } from 'cookie-signature';
import type { SessionData } from 'express-session';
import type Redis from 'ioredis';
import { Clock, DomainError } from '../../common';
import { DEV_SESSION_SECRET, Env, isProduction } from '../../config';
import { RedisConnections } from '../../redis';
import { RollingRedisStore } from '../sessions/rolling-redis-store';
import { SESSION_COOKIE } from '../sessions/session-cookie';
import { UserRepository } from '../users/user.repository';

/** How long a minted session lives (a hook run is bounded by 10 minutes). */
const SYSTEM_SESSION_MS = 15 * 60_000;

/** A session minted for a system account: the `Cookie` header that carries it, and its end. */
export interface SystemSession {
  cookie: string;
  end(): Promise<void>;
}

/**
 * Sessions for system accounts only, written to the session store as a login writes them, so
 * their requests pass the same session middleware and guards as anyone's (no bypass): the
 * account's member role decides what they may do.
 */
@Injectable()
export class SystemSessions implements OnModuleDestroy {
  private readonly redis: Redis;
  /** The session middleware's store (same keys, same serialisation), on a connection of its own. */
  private readonly store: RollingRedisStore;

  constructor(
    private readonly env: Env,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    connections: RedisConnections,
  ) {
    this.redis = connections.session();
    this.store = new RollingRedisStore(this.redis, `${connections.prefix}sess:`, SYSTEM_SESSION_MS);
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  async open(userId: string): Promise<SystemSession> {
    const user = await this.users.find({ id: userId });
    if (!user?.system) throw DomainError.forbidden('only system accounts get minted sessions');
    const sid = randomBytes(24).toString('base64url');
    const now = this.clock.now();
    const data: SessionData & { userId: string; authenticatedAt: string } = {
      cookie: {
        originalMaxAge: SYSTEM_SESSION_MS,
        expires: new Date(now.getTime() + SYSTEM_SESSION_MS),
        httpOnly: true,
        path: '/',
        sameSite: 'lax',
        secure: isProduction(this.env),
      } as SessionData['cookie'],
      userId,
      authenticatedAt: now.toISOString(),
    };
    await this.store.set(sid, data);
    const secret = this.env.SESSION_SECRET ?? DEV_SESSION_SECRET;
    return {
      cookie: `${SESSION_COOKIE}=${encodeURIComponent(`s:${sign(sid, secret)}`)}`,
      end: async () => {
        await this.store.destroy(sid);
      },
    };
  }
}
