import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { useEmbeddedPostgres } from '../../../src/database/embedded';
import { packagedBinaries, projectTempDir } from '../../../src/database/embedded/postgres-binaries';

/**
 * The start-up path without DATABASE_URL: the embedded PostgreSQL, from a folder the `postgres`
 * system user may not enter (as root), shared with the CLI while the service runs, and failing
 * with one clear message.
 */
const isRoot = userInfo().uid === 0;
const quiet = new Logger('embedded-test');
quiet.log = () => undefined;
quiet.warn = () => undefined;

async function query(url: string, sql: string) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

function runCli(args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ code: number | null; out: string }>((done) => {
    const child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', 'src/cli.ts', ...args],
      { cwd: resolve(__dirname, '../../..'), env: env as NodeJS.ProcessEnv },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    child.on('close', (code) => done({ code, out }));
  });
}

describe('embedded PostgreSQL', () => {
  // A project folder nobody but its owner may enter, like a clone under /root or `mktemp -d`.
  const project = mkdtempSync(join(tmpdir(), 'll-closed-project-'));
  const configured = join(project, '.data', 'postgres');
  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
    rmSync(projectTempDir(project), { recursive: true, force: true });
  });

  it(`starts from a project folder closed to other users (${isRoot ? 'as root: data under the temporary directory' : 'as a user: data in place'})`, async () => {
    const server = await useEmbeddedPostgres(configured, quiet, { projectPath: project });
    try {
      expect(server.owned).toBe(true);
      expect(server.dataDir).toBe(isRoot ? join(projectTempDir(project), 'postgres') : configured);
      expect(await query(server.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      // The port and pid are written under .data/ for the CLI to find.
      const runtime = JSON.parse(readFileSync(`${configured}.server.json`, 'utf8'));
      expect(runtime).toMatchObject({ port: expect.any(Number), dataDir: server.dataDir });

      // A second user of the same folder connects instead of starting another postmaster.
      const second = await useEmbeddedPostgres(configured, quiet, { projectPath: project });
      expect(second).toMatchObject({ owned: false, url: server.url, dataDir: server.dataDir });
      await second.stop();
      expect(await query(server.url, 'SELECT 2 AS two')).toEqual([{ two: 2 }]);

      // `npm run cli` while the service serves: it uses the running server (no second start).
      const env = {
        ...process.env,
        DATABASE_URL: undefined,
        EMBEDDED_POSTGRES_DIR: configured,
        NODE_ENV: 'development',
      };
      const cli = await runCli(['site-admin:grant', 'nobody@example.test'], env);
      expect(cli.out).toContain('No user with e-mail nobody@example.test');
      expect(cli.code).toBe(1);
      expect(JSON.parse(readFileSync(`${configured}.server.json`, 'utf8')).pid).toBe(runtime.pid);
      // The CLI migrated the database it talked to.
      const tables = await query(server.url, "SELECT to_regclass('public.site_admin') AS t");
      expect(tables[0].t).toBe('site_admin');
    } finally {
      await server.stop();
    }
    expect(existsSync(`${configured}.server.json`)).toBe(false);
  }, 120_000);

  it('restarts on the data it kept', async () => {
    const server = await useEmbeddedPostgres(configured, quiet, { projectPath: project });
    try {
      expect(await query(server.url, "SELECT to_regclass('public.site_admin') AS t")).toEqual([
        { t: 'site_admin' },
      ]);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('runs PostgreSQL from a copy when the binaries sit in a folder the postgres user cannot enter', async () => {
    const closedProject = mkdtempSync(join(tmpdir(), 'll-closed-bin-'));
    try {
      const packaged = await packagedBinaries();
      const nativeRoot = resolve(packaged.postgres, '..', '..');
      execFileSync('cp', ['-a', nativeRoot, join(closedProject, 'native')]);
      const binaries = {
        initdb: join(closedProject, 'native', 'bin', 'initdb'),
        postgres: join(closedProject, 'native', 'bin', 'postgres'),
      };
      const server = await useEmbeddedPostgres(join(closedProject, '.data', 'pg'), quiet, {
        projectPath: closedProject,
        binaries,
      });
      try {
        expect(await query(server.url, 'SELECT 3 AS three')).toEqual([{ three: 3 }]);
        const copy = join(projectTempDir(closedProject), 'pg-native', 'bin', 'postgres');
        expect(existsSync(copy)).toBe(isRoot);
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(closedProject, { recursive: true, force: true });
      rmSync(projectTempDir(closedProject), { recursive: true, force: true });
    }
  }, 120_000);

  it('fails with one message that says what to do, without an unhandled error', async () => {
    const missing = {
      initdb: join(project, 'no', 'initdb'),
      postgres: join(project, 'no', 'postgres'),
    };
    await expect(
      useEmbeddedPostgres(join(project, 'other'), quiet, {
        projectPath: project,
        binaries: missing,
      }),
    ).rejects.toThrow(/binaries are missing[\s\S]*DATABASE_URL/);
  });
});
