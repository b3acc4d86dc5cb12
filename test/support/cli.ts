import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { TestApp } from './app';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');

/** Runs the real CLI against this file's database; resolves with its exit code and output. */
export async function cli(t: TestApp, ...args: string[]) {
  try {
    // As `npm run cli` does (ts-node, transpile only), without npx's own start-up on every run.
    const { stdout, stderr } = await run(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', 'src/cli.ts', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: t.database.url },
        timeout: 60_000,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
