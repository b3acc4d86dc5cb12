import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { User } from './auth/users/user.entity';
import { EmbeddedPostgresHandle, startEmbeddedPostgres } from './database/embedded-postgres';
import { typeormOptions } from './database/typeorm-options';
import { SiteAdmin } from './organizations/site-admin/site-admin.entity';
import { SiteAdminService, UnknownUserError } from './organizations/site-admin/site-admin.service';

/**
 * Operator commands: `npm run cli -- <command> [args]`. Talks to the database of DATABASE_URL
 * (or the embedded one, like the app) without starting the HTTP server, queues or Redis.
 */
const USAGE = `Usage: npm run cli -- <command>

Commands:
  site-admin:grant <email>    give the user site administration rights (canReadSite)
  site-admin:revoke <email>   take them away
`;

type Command = (admins: SiteAdminService, args: string[]) => Promise<void>;

const COMMANDS: Record<string, Command> = {
  'site-admin:grant': async (admins, [email]) => {
    const r = await admins.grant(email);
    console.log(
      r.changed ? `${r.email} is now a site admin` : `${r.email} was already a site admin`,
    );
  },
  'site-admin:revoke': async (admins, [email]) => {
    const r = await admins.revoke(email);
    console.log(
      r.changed ? `${r.email} is no longer a site admin` : `${r.email} was not a site admin`,
    );
  },
};

class UsageError extends Error {}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(name && name !== '--help' ? `Unknown command ${name}\n\n${USAGE}` : USAGE);
    return name && name !== '--help' ? 2 : 0;
  }
  let embedded: EmbeddedPostgresHandle | undefined;
  let dataSource: DataSource | undefined;
  try {
    if (!args[0]?.trim()) throw new UsageError(`${name} needs an e-mail address\n\n${USAGE}`);
    if (existsSync('.env') && !process.env.DATABASE_URL) process.loadEnvFile('.env');
    let url = process.env.DATABASE_URL;
    if (!url) {
      embedded = await startEmbeddedPostgres(
        process.env.EMBEDDED_POSTGRES_DIR || './.data/postgres',
      );
      url = embedded.url;
    }
    dataSource = await new DataSource({
      ...typeormOptions(url),
      entities: [User, SiteAdmin],
    }).initialize();
    await command(new SiteAdminService(dataSource), args);
    return 0;
  } catch (err) {
    if (err instanceof UnknownUserError || err instanceof UsageError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    process.stderr.write(`${name} failed: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await dataSource?.destroy().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
