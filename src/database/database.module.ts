import { DynamicModule, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Env } from '../config';
import { EmbeddedPostgresHandle, useEmbeddedPostgres } from './embedded';
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

const connection = (allEntities: boolean) =>
  TypeOrmModule.forRootAsync({
    imports: [DatabaseServerModule],
    inject: [DatabaseServer],
    useFactory: (server: DatabaseServer) => ({
      ...typeormOptions(server.url),
      autoLoadEntities: true,
      // Tools that load a few modules still need every entity their foreign keys point to.
      ...(allEntities ? { entities: ENTITY_GLOBS } : {}),
      // Pending migrations are applied at start-up, before the app serves anything.
      migrationsRun: true,
      retryAttempts: 3,
      retryDelay: 1000,
    }),
  });

@Module({ imports: [connection(false)] })
export class DatabaseModule {
  /** For the CLI: the connection with every entity, whichever modules are loaded. */
  static withAllEntities(): DynamicModule {
    return { module: DatabaseModule, imports: [connection(true)] };
  }
}
