import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { freePort } from '../common/net';
import { resolveRedis } from './redis-server';

const quiet = new Logger('test');
quiet.log = () => undefined;

describe('resolveRedis', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'll-redis-spec-'));

  it('uses REDIS_URL as given', async () => {
    const r = await resolveRedis('redis://cache.example:6380', dir(), quiet);
    expect(r.url).toBe('redis://cache.example:6380');
  });

  it('uses the local Redis when one answers', async () => {
    const r = await resolveRedis(undefined, dir(), quiet, {
      port: 6379,
      executable: 'redis-server',
    });
    expect(r.url).toBe('redis://127.0.0.1:6379');
  });

  it('starts its own redis-server when nothing answers, and stops it', async () => {
    const port = await freePort();
    const r = await resolveRedis(undefined, dir(), quiet, { port, executable: 'redis-server' });
    expect(r.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    const client = new Redis(r.url, { maxRetriesPerRequest: 1 });
    try {
      expect(await client.ping()).toBe('PONG');
    } finally {
      client.disconnect();
      await r.stop();
    }
  });

  it('says how to get Redis when there is none to use or start', async () => {
    const port = await freePort();
    await expect(
      resolveRedis(undefined, dir(), quiet, { port, executable: 'no-such-redis-server' }),
    ).rejects.toThrow(/REDIS_URL[\s\S]*apt-get install redis-server/);
  });
});
