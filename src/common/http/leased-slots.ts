import type Redis from 'ioredis';
import type { Clock } from '../time/clock';

/**
 * Takes a place if fewer than the limit are held: drops the places whose lease has ended, counts
 * the others, adds this one with its lease's end as its score. KEYS[1] the holder's set; ARGV: now
 * (ms), lease (ms), the place's id, the limit. One key: a Redis Cluster runs it on one slot.
 */
const ACQUIRE = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], 2 * tonumber(ARGV[2]))
return 1`;

/** Moves a place's lease end to now + lease, if the place is still held (same KEYS and ARGV). */
const RENEW = `
if not redis.call('ZSCORE', KEYS[1], ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], 2 * tonumber(ARGV[2]))
return 1`;

/**
 * At most a limit of places per holder at once, counted in Redis (shared by every instance), each
 * place on a lease: a sorted set per holder of place id → the lease's end (the Clock's ms). A place
 * not released (its instance crashed) stops counting when its lease ends; a holder renews the
 * lease of the places it still uses. The key of a holder expires with its leases.
 */
export class LeasedSlots {
  constructor(
    private readonly redis: Redis,
    /** Keys are `<prefix><holder>`. */
    private readonly prefix: string,
    private readonly clock: Clock,
  ) {}

  /** Whether `holder` got the place `id` (false: `limit` places are held). */
  async acquire(holder: string, id: string, limit: number, leaseMs: number): Promise<boolean> {
    const now = this.clock.nowMs();
    return (await this.redis.eval(ACQUIRE, 1, this.key(holder), now, leaseMs, id, limit)) === 1;
  }

  /** Extends the lease of a place still held; false when it was released or had lapsed. */
  async renew(holder: string, id: string, leaseMs: number): Promise<boolean> {
    const now = this.clock.nowMs();
    return (await this.redis.eval(RENEW, 1, this.key(holder), now, leaseMs, id)) === 1;
  }

  async release(holder: string, id: string): Promise<void> {
    await this.redis.zrem(this.key(holder), id);
  }

  /** The places of `holder` whose lease has not ended. */
  held(holder: string): Promise<number> {
    return this.redis.zcount(this.key(holder), `(${this.clock.nowMs()}`, '+inf');
  }

  private key(holder: string) {
    return `${this.prefix}${holder}`;
  }
}
