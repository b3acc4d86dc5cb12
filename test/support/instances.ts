import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import request from 'supertest';
import { freePort } from '../../src/common/net';

/** What an instance's stderr kept last, for the message of a test that fails. */
const KEPT_LINES = 40;

export interface Instance {
  readonly port: number;
  readonly url: string;
  readonly child: ChildProcess;
  /** supertest against the instance's port. */
  readonly http: ReturnType<typeof request>;
  /** The last lines the instance wrote to stderr. */
  output(): string;
  /** Resolves with the exit code (null when a signal ended it). */
  readonly exited: Promise<number | null>;
  /** SIGKILL (the default: a crash) or SIGTERM (a graceful stop); resolves once it exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface InstanceOptions {
  /** Wait until `/health` answers 200 (default), or only until the process started. */
  waitReady?: boolean;
  readyTimeoutMs?: number;
  /** The process's LOG_LEVEL (default error). */
  logLevel?: string;
}

/**
 * The service as `npm start` runs it, in a process of its own (ts-node, transpile only), on the
 * settings given: a test names DATABASE_URL, REDIS_URL or REDIS_PREFIX, so two instances share
 * one database and one Redis. PORT is a free port unless given.
 */
export async function startInstance(
  env: Record<string, string>,
  options: InstanceOptions = {},
): Promise<Instance> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
    cwd: resolve(__dirname, '../..'),
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: options.logLevel ?? 'error' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines: string[] = [];
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    lines.push(...chunk.split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - KEPT_LINES));
  });
  const exited = new Promise<number | null>((done) => {
    if (child.exitCode !== null) done(child.exitCode);
    else child.once('exit', (code) => done(code));
  });
  const url = `http://127.0.0.1:${port}`;
  const instance: Instance = {
    port,
    url,
    child,
    http: request(url),
    output: () => lines.join('\n'),
    exited,
    async stop(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (options.waitReady !== false) await waitUntilReady(instance, options.readyTimeoutMs ?? 60_000);
  return instance;
}

/** Polls `/health` until it answers 200; fails with the instance's output if it exits first. */
export async function waitUntilReady(instance: Instance, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void instance.exited.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the instance exited before it was ready:\n${instance.output()}`);
    const ok = await fetch(`${instance.url}/health`, { signal: AbortSignal.timeout(2000) })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the instance was not ready in ${timeoutMs} ms:\n${instance.output()}`);
}

/** Stops every instance still running (afterAll), with SIGKILL. */
export async function stopAll(instances: Iterable<Instance>): Promise<void> {
  await Promise.all([...instances].map((i) => i.stop('SIGKILL')));
}
