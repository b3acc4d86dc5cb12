import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppLogger } from './common';
import { ConfigModule, loadEnv } from './config';
import { LedgerModule, LedgerVerifier } from './cap-table';
import { DatabaseModule } from './database';
import { SiteAdminModule, SiteAdminService, UnknownUserError } from './organizations';

/**
 * Operator commands: `npm run cli -- <command> [args]`. Talks to the database of DATABASE_URL,
 * or to the embedded PostgreSQL: the one `npm start` is running (found through its runtime file
 * under `.data/`), else one it starts for the command. No HTTP server, queues or Redis.
 */
const USAGE = `Usage: npm run cli -- <command>

Commands:
  site-admin:grant <email>           give the user site administration rights (canReadSite)
  site-admin:revoke <email>          take them away
  ledger:verify <organization id>    replay the organization's equity transaction log and compare
                                     it with the cap table's tables, and the positions its moves
                                     make with the log replayed as of the same dates (exit 1 on
                                     any difference)

Exit status: 0 done, 1 the command failed, 2 called wrongly.
`;

@Module({
  imports: [ConfigModule, DatabaseModule.withAllEntities(), SiteAdminModule, LedgerModule],
})
class CliModule {}

type Command = (
  app: { get<T>(type: new (...args: never[]) => T): T },
  args: string[],
) => Promise<void>;

const COMMANDS: Record<string, Command> = {
  'site-admin:grant': async (app, [email]) => {
    const r = await app.get(SiteAdminService).grant(email);
    console.log(
      r.changed ? `${r.email} is now a site admin` : `${r.email} was already a site admin`,
    );
  },
  'ledger:verify': async (app, [organizationId]) => {
    if (!/^[0-9a-f-]{36}$/i.test(organizationId))
      throw new UsageError(`ledger:verify needs an organization id\n\n${USAGE}`);
    const result = await app.get(LedgerVerifier).verify(organizationId);
    if (result.replayError) {
      throw new VerificationError(
        `the log of ${organizationId} does not replay: ${result.replayError}`,
      );
    }
    const lines = [
      ...result.differences.map(
        (d) =>
          `  ${d.record} ${d.id} ${d.field}: log says ${String(d.replayed)}, tables hold ${String(d.stored)}`,
      ),
      ...result.moveDifferences.map(
        (d) =>
          `  as of ${d.date}: ${d.record} ${d.id} ${d.field}: log says ${String(d.replayed)}, moves make ${String(d.moved)}`,
      ),
    ];
    if (lines.length) {
      throw new VerificationError(
        `${lines.length} difference(s) between the log (${result.transactions} transactions) and the tables or moves of ${organizationId}:\n${lines.join('\n')}`,
      );
    }
    console.log(
      `ledger of ${organizationId}: ${result.transactions} transactions replayed; the tables and the moves equal the replay`,
    );
  },
  'site-admin:revoke': async (app, [email]) => {
    const r = await app.get(SiteAdminService).revoke(email);
    console.log(
      r.changed ? `${r.email} is no longer a site admin` : `${r.email} was not a site admin`,
    );
  },
};

class UsageError extends Error {}
class VerificationError extends Error {}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(name && name !== '--help' ? `Unknown command ${name}\n\n${USAGE}` : USAGE);
    return name && name !== '--help' ? 2 : 0;
  }
  try {
    if (!args[0]?.trim()) throw new UsageError(`${name} needs an argument\n\n${USAGE}`);
    const env = loadEnv();
    const logger = new AppLogger(env.LOG_LEVEL === 'log' ? 'warn' : env.LOG_LEVEL);
    const app = await NestFactory.createApplicationContext(CliModule, { logger });
    try {
      await command(app, args);
    } finally {
      await app.close();
    }
    return 0;
  } catch (err) {
    // 2: called wrongly; 1: the command ran and failed (unknown user, a ledger that differs).
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    if (err instanceof UnknownUserError || err instanceof VerificationError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    new Logger('cli').debug((err as Error).stack);
    process.stderr.write(`${name} failed: ${(err as Error).message}\n`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
