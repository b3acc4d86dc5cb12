import Redis from 'ioredis';
import type { Response } from 'supertest';

/** The `connect.sid` Set-Cookie header of a response, if any. */
export function sessionSetCookie(res: Response): string | undefined {
  const raw = res.headers['set-cookie'] as unknown as string[] | string | undefined;
  const all = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return all.find((c) => c.startsWith('connect.sid='));
}

/** The session id inside a `connect.sid` cookie (`s:<id>.<signature>`, URL-encoded). */
export function sessionIdOf(setCookie: string | undefined): string {
  if (!setCookie) throw new Error('no connect.sid cookie');
  const value = decodeURIComponent(setCookie.split(';')[0].slice('connect.sid='.length));
  if (!value.startsWith('s:')) throw new Error(`unsigned session cookie: ${value}`);
  return value.slice(2, value.lastIndexOf('.'));
}

/** A plain Redis client on the tests' server (close it with `disconnect()`). */
export const testRedis = () => new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
