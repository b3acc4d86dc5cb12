import type Redis from 'ioredis';

/**
 * Answers of a provider kept in Redis for a while, shared by every instance: what `load` answered
 * is kept as text under `<prefix><key>` for `ttlMs`; a failure is never kept. The key says whose
 * answer it is: a per-user answer carries the user in its key (and, when it is personal data, is
 * sealed by its caller), so no user is ever given another's.
 */
export class AnswerCache {
  constructor(
    private readonly redis: Redis,
    /** Names the cache (`billing:catalogue:`). */
    private readonly prefix: string,
    private readonly ttlMs: number,
  ) {}

  get(key: string): Promise<string | null> {
    return this.redis.get(`${this.prefix}${key}`);
  }

  async set(key: string, value: string): Promise<void> {
    await this.redis.set(`${this.prefix}${key}`, value, 'PX', this.ttlMs);
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(`${this.prefix}${key}`);
  }

  /** The kept answer of `key`, else `load`'s, kept. */
  async through(key: string, load: () => Promise<string>): Promise<string> {
    const kept = await this.get(key);
    if (kept !== null) return kept;
    const loaded = await load();
    await this.set(key, loaded);
    return loaded;
  }
}
