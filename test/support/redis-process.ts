import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, portAnswers } from '../../src/common/net';

/**
 * A private redis-server for tests that stop and restart Redis, or lose its data; data kept in an
 * AOF file. (Never the shared Redis: only this one may be killed or wiped.)
 */
export class RedisProcess {
  private child?: ChildProcess;
  readonly dir = mkdtempSync(join(tmpdir(), 'll-redis-'));
  port = 0;

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (!this.port) this.port = await freePort();
    this.child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      if (await portAnswers('127.0.0.1', this.port, 100)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('redis-server did not start');
  }

  /** SIGKILL: the way Redis disappears in an outage. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((done) => {
      child.once('exit', () => done());
      child.kill('SIGKILL');
    });
  }

  /** A restart without the data: killed, its files deleted, started empty on the same port. */
  async loseData(): Promise<void> {
    await this.kill();
    for (const name of readdirSync(this.dir)) {
      rmSync(join(this.dir, name), { recursive: true, force: true });
    }
    await this.start();
  }

  /** Killed, and its files deleted. */
  async remove(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
