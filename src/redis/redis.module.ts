import { Global, Module, OnApplicationShutdown, Inject } from '@nestjs/common';
import Redis, { RedisOptions } from 'ioredis';
import { Env } from '../config/env.schema';
import { resolveRedis, ResolvedRedis } from './redis-server';

/**
 * The one place Redis connections are made. Sessions use a client that fails fast while Redis is
 * down (so requests get 503 instead of hanging); Bull's clients follow Bull's own requirements.
 */
export class RedisConnections {
  private readonly clients = new Set<Redis>();
  private shared?: Redis;
  private sharedSubscriber?: Redis;
  private closed = false;

  constructor(
    readonly url: string,
    readonly prefix: string,
    private readonly server: ResolvedRedis,
  ) {}

  /** For request-path use (sessions, rate limits): no offline queue, short retries. */
  session(): Redis {
    return this.create({
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
    });
  }

  /** Bull's createClient contract: shared client/subscriber, a new blocking client each time. */
  bull(type: 'client' | 'subscriber' | 'bclient'): Redis {
    const options = { maxRetriesPerRequest: null, enableReadyCheck: false };
    if (type === 'client') return (this.shared ??= this.create(options));
    if (type === 'subscriber') return (this.sharedSubscriber ??= this.create(options));
    return this.create(options);
  }

  private create(options: RedisOptions): Redis {
    const client = new Redis(this.url, {
      retryStrategy: (times) => Math.min(times * 200, 2000),
      // Bull asks for clients while it shuts down; after close they must not open sockets.
      lazyConnect: this.closed,
      ...options,
    });
    client.on('error', () => undefined); // reconnects by itself; errors surface on commands
    this.clients.add(client);
    client.once('end', () => this.clients.delete(client));
    return client;
  }

  async close() {
    this.closed = true;
    // Bull may still ask for a blocking client while its queues shut down; sweep until none is left.
    for (let sweep = 0; sweep < 10; sweep++) {
      await Promise.all([...this.clients].map((c) => c.quit().catch(() => c.disconnect())));
      await new Promise((r) => setTimeout(r, 50));
      if (!this.clients.size) break;
    }
    await this.server.stop();
  }
}

@Global()
@Module({
  providers: [
    {
      provide: RedisConnections,
      inject: [Env],
      useFactory: async (env: Env) => {
        const server = await resolveRedis(env.REDIS_URL, env.REDIS_DATA_DIR);
        return new RedisConnections(server.url, env.REDIS_PREFIX, server);
      },
    },
  ],
  exports: [RedisConnections],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(RedisConnections) private readonly connections: RedisConnections) {}

  async onApplicationShutdown() {
    await this.connections.close();
  }
}
