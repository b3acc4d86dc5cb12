import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdpOAuthModule } from '../../auth';
import { DataRoomModule } from '../data-room/data-room.module';
import { DocumentsCoreModule } from '../documents-core.module';
import { DriveAccess } from './drive-access';
import { DriveAvailability } from './drive-availability.middleware';
import { DriveConnections } from './drive-connections.service';
import { DriveFolders } from './drive-folders.service';
import { DriveRecords } from './drive-records';
import { GoogleDriveController } from './google-drive.controller';
import { DriveConnection } from './store/drive-connection.entity';
import { DriveConnectionStore } from './store/drive-connection.store';
import { DriveSyncConfiguration } from './store/drive-sync-configuration.entity';
import { DriveSyncConfigurationRepository } from './store/drive-sync-configuration.repository';
import { DriveSyncHistoryRepository } from './store/drive-sync-history.repository';
import { DriveSyncRun } from './store/drive-sync-run.entity';
import { DriveSyncedFile } from './store/drive-synced-file.entity';
import { DriveSyncConsumer } from './sync/drive-sync.consumer';
import { DriveSyncController } from './sync/drive-sync.controller';
import { DriveSyncHistoryRetention } from './sync/drive-sync-history-retention';
import { DriveSyncQueue } from './sync/drive-sync-queue';
import { DriveSyncRecords } from './sync/drive-sync-records';
import { DriveSyncRunner } from './sync/drive-sync-runner';
import { DriveSyncs } from './sync/drive-syncs.service';
import { SyncDestinations } from './sync/sync-destinations';
import { SyncConfigurations } from './sync-configurations.service';

/** The sync runs: on demand, scheduled, queued and run; their history kept short. */
const SYNC_RUNS = {
  controllers: [DriveSyncController],
  providers: [
    DriveSyncRecords,
    DriveSyncQueue,
    DriveSyncRunner,
    SyncDestinations,
    DriveSyncConsumer,
    DriveSyncs,
    DriveSyncHistoryRetention,
  ],
};

/** Every route of the cloud drive, the sync's included, whichever controller declares it. */
const DRIVE_ROUTES = 'v1/organization/:organization/google-drive';

/**
 * The cloud-drive sync (spec 4.4, issue 37): an organization connects its identity provider's
 * drive (the shared OAuth flow, purpose `drive`), picks folders to sync into the organization's
 * store (the data room or the productivity-suite store), and runs them on demand or on a schedule.
 */
@Module({
  imports: [
    IdpOAuthModule,
    DocumentsCoreModule,
    DataRoomModule,
    TypeOrmModule.forFeature([
      DriveConnection,
      DriveSyncConfiguration,
      DriveSyncRun,
      DriveSyncedFile,
    ]),
  ],
  controllers: [
    // The routes: connection, folders, configurations, history.
    GoogleDriveController,
    // The sync runs.
    ...SYNC_RUNS.controllers,
  ],
  providers: [
    DriveConnectionStore,
    DriveAccess,
    // The routes: connection, folders, configurations, history.
    DriveRecords,
    DriveConnections,
    DriveFolders,
    DriveSyncConfigurationRepository,
    DriveSyncHistoryRepository,
    SyncConfigurations,
    // The sync runs.
    ...SYNC_RUNS.providers,
  ],
})
export class DriveModule implements NestModule {
  // A middleware, so that in production nothing else (no session, no guard) runs.
  configure(consumer: MiddlewareConsumer) {
    consumer
      .apply(DriveAvailability)
      .forRoutes(
        { path: DRIVE_ROUTES, method: RequestMethod.ALL },
        { path: `${DRIVE_ROUTES}/*rest`, method: RequestMethod.ALL },
      );
  }
}
