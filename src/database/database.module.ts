import { Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Env } from '../config/env.schema';
import { EmbeddedPostgresHandle, startEmbeddedPostgres } from './embedded-postgres';
import { typeormOptions } from './typeorm-options';

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
      new Logger('Database').log('DATABASE_URL is not set: starting embedded PostgreSQL');
      server.embedded = await startEmbeddedPostgres(env.EMBEDDED_POSTGRES_DIR);
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

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      imports: [DatabaseServerModule],
      inject: [DatabaseServer],
      useFactory: (server: DatabaseServer) => ({
        ...typeormOptions(server.url),
        autoLoadEntities: true,
        // Pending migrations are applied at start-up, before the app serves anything.
        migrationsRun: true,
        retryAttempts: 3,
        retryDelay: 1000,
      }),
    }),
  ],
})
export class DatabaseModule {}
