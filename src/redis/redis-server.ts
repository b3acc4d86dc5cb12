import { spawn, spawnSync, ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { freePort, portAnswers } from '../common';

export interface ResolvedRedis {
  url: string;
  stop(): Promise<void>;
}

const HOW_TO_GET_REDIS =
  'No Redis found. Either set REDIS_URL to a running Redis (redis://host:6379), start one on ' +
  '127.0.0.1:6379, or install the redis-server executable (Debian/Ubuntu: `apt-get install ' +
  'redis-server`; macOS: `brew install redis`) so the service can start its own.';

/**
 * REDIS_URL when set; else a Redis on 127.0.0.1:6379 when one answers; else a `redis-server` we
 * start ourselves with its data under `dataDir`.
 */
export async function resolveRedis(
  configuredUrl: string | undefined,
  dataDir: string,
  logger = new Logger('Redis'),
  /** Where a local Redis is looked for, and which executable starts one (tests change them). */
  local = { port: 6379, executable: 'redis-server' },
): Promise<ResolvedRedis> {
  const nothingToStop = async () => undefined;
  if (configuredUrl) return { url: configuredUrl, stop: nothingToStop };
  if (await portAnswers('127.0.0.1', local.port)) {
    return { url: `redis://127.0.0.1:${local.port}`, stop: nothingToStop };
  }
  const found = spawnSync(local.executable, ['--version'], { stdio: 'ignore' });
  if (found.error || found.status !== 0) throw new Error(HOW_TO_GET_REDIS);

  const dir = resolve(dataDir);
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const child = spawn(
    local.executable,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '60 1',
      '--appendonly',
      'no',
    ],
    { stdio: 'ignore' },
  );
  await waitForPort(child, port);
  logger.log(`Started redis-server on 127.0.0.1:${port} (data in ${dir})`);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

async function waitForPort(child: ChildProcess, port: number) {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (await portAnswers('127.0.0.1', port, 200)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error('redis-server did not start listening within 5 seconds');
}
