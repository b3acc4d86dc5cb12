import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis, { RedisOptions } from 'ioredis';
import { SHARED_REDIS } from '../common';
import { Env } from '../config';
import { moveUntaggedBullKeys } from './bull-key-move';
import { resolveRedis, ResolvedRedis } from './redis-server';

/**
 * The one place Redis connections are made. Sessions use a client that fails fast while Redis is
 * down (so requests get 503 instead of hanging); Bull's clients follow Bull's own requirements.
 */
export class RedisConnections {
  private readonly clients = new Set<Redis>();
  private shared?: Redis;
  private sharedSubscriber?: Redis;
  private turns?: Redis;
  private closed = false;

  constructor(
    readonly url: string,
    readonly prefix: string,
    private readonly server: ResolvedRedis,
  ) {}

  /**
   * The prefix of Bull's keys, `{<REDIS_PREFIX>bull}`: a hash tag, so that every key of every queue
   * falls in one slot of a Redis Cluster (Bull's scripts touch several keys of a queue at once).
   * REDIS_PREFIX refuses `{` and `}`, so the tag is always this one.
   */
  get bullPrefix(): string {
    return `{${this.prefix}bull}`;
  }

  /**
   * Moves the jobs an earlier version queued under the untagged prefix (bull-key-move.ts). Skipped
   * with a warning while Redis does not answer: the start does not wait for it.
   */
  async moveUntaggedBullKeys(): Promise<number> {
    const client = this.create({ maxRetriesPerRequest: 1, connectTimeout: 2000 });
    try {
      return await moveUntaggedBullKeys(client, `${this.prefix}bull`, this.bullPrefix);
    } catch (err) {
      new Logger('Redis').warn(`Bull keys not moved: ${(err as Error).message}`);
      return 0;
    } finally {
      client.disconnect();
      this.clients.delete(client);
    }
  }

  /** For request-path use (sessions, rate limits): no offline queue, short retries. */
  session(): Redis {
    return this.create({
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
    });
  }

  /**
   * Whether this instance takes the turn `name` for the next `forMs`: the first instance to ask
   * gets it (the scheduler's once per period across instances).
   */
  async claimTurn(name: string, forMs: number): Promise<boolean> {
    // Not a request's: it may wait for the connection (made on the first turn asked for).
    this.turns ??= this.create({ maxRetriesPerRequest: 1, connectTimeout: 2000 });
    return (await this.turns.set(`${this.prefix}${name}`, '1', 'PX', forMs, 'NX')) === 'OK';
  }

  /** Bull's createClient contract: shared client/subscriber, a new blocking client each time. */
  bull(type: 'client' | 'subscriber' | 'bclient'): Redis {
    const options = { maxRetriesPerRequest: null, enableReadyCheck: false };
    if (type === 'client') return (this.shared ??= this.sharedByQueues(this.create(options)));
    if (type === 'subscriber') {
      return (this.sharedSubscriber ??= this.sharedByQueues(this.create(options)));
    }
    return this.quietOnClose(this.create(options));
  }

  /**
   * Every queue adds its own `ready` and `error` listeners to the client and subscriber they
   * share: not a leak, and more than Node's default warning threshold of 10 once there are 10 queues.
   */
  private sharedByQueues(client: Redis): Redis {
    return client.setMaxListeners(100);
  }

  /**
   * Bull names its worker connection (`CLIENT SETNAME`) without awaiting the promise. When the
   * queues close before that connection is up, the command fails with "Connection is closed" and
   * surfaces as an unhandled rejection. A connection without a name works the same, so a failed
   * naming is ignored.
   */
  private quietOnClose(client: Redis): Redis {
    const send = client.client.bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as unknown as { client: (...args: unknown[]) => Promise<unknown> }).client = (
      ...args: unknown[]
    ) => {
      const result = send(...args);
      return args[0] === 'setname' ? result.catch(() => undefined) : result;
    };
    return client;
  }

  private create(options: RedisOptions): Redis {
    if (this.closed) return this.inert(options);
    const client = new Redis(this.url, {
      retryStrategy: (times) => Math.min(times * 200, 2000),
      ...options,
    });
    client.on('error', () => undefined); // reconnects by itself; errors surface on commands
    this.clients.add(client);
    return client;
  }

  /**
   * Bull names its worker connection without awaiting it, so it may ask for a client after the
   * app has closed. That client must never open a socket (it would keep the process alive); its
   * commands simply never complete.
   */
  private inert(options: RedisOptions): Redis {
    const client = new Redis(this.url, { ...options, lazyConnect: true });
    client.connect = () => new Promise<void>(() => undefined);
    return client;
  }

  async close() {
    this.closed = true;
    // Bull may still be setting up or reconnecting a client while its queues shut down: sweep
    // until every client has stayed closed for a few rounds.
    for (let quiet = 0, round = 0; quiet < 3 && round < 40; round++) {
      const live = [...this.clients].filter((c) => c.status !== 'end');
      quiet = live.length ? 0 : quiet + 1;
      live.forEach((c) => c.disconnect());
      await new Promise((r) => setTimeout(r, 25));
    }
    this.clients.clear();
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
    // Common's counters shared by every instance (upload slots, the request rate limit).
    { provide: SHARED_REDIS, useExisting: RedisConnections },
  ],
  exports: [RedisConnections, SHARED_REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(RedisConnections) private readonly connections: RedisConnections) {}

  async onApplicationShutdown() {
    await this.connections.close();
  }
}
