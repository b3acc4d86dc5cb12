import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppLogger } from './common';
import { ConfigModule, loadEnv } from './config';
import { LedgerModule, LedgerVerifier, type Verification } from './cap-table';
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
                                     any difference); --all: every organization with a log

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
    const all = organizationId === '--all';
    if (!all && !/^[0-9a-f-]{36}$/i.test(organizationId))
      throw new UsageError(`ledger:verify needs an organization id\n\n${USAGE}`);
    const verifier = app.get(LedgerVerifier);
    const failures: string[] = [];
    for (const id of all ? await verifier.organizations() : [organizationId]) {
      const report = reportOf(await verifier.verify(id));
      if (report.failed) failures.push(report.text);
      else console.log(report.text);
    }
    if (failures.length) throw new VerificationError(failures.join('\n'));
  },
  'site-admin:revoke': async (app, [email]) => {
    const r = await app.get(SiteAdminService).revoke(email);
    console.log(
      r.changed ? `${r.email} is no longer a site admin` : `${r.email} was not a site admin`,
    );
  },
};

/** What `ledger:verify` says of one organization, and whether it found a difference. */
function reportOf(result: Verification): { failed: boolean; text: string } {
  const id = result.organizationId;
  if (result.replayError)
    return { failed: true, text: `the log of ${id} does not replay: ${result.replayError}` };
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
    return {
      failed: true,
      text: `${lines.length} difference(s) between the log (${result.transactions} transactions) and the tables or moves of ${id}:\n${lines.join('\n')}`,
    };
  }
  return {
    failed: false,
    text: `ledger of ${id}: ${result.transactions} transactions replayed; the tables and the moves equal the replay`,
  };
}

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
