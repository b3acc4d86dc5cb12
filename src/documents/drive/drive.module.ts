import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdpOAuthModule } from '../../auth';
import { DataRoomModule } from '../data-room/data-room.module';
import { DocumentsCoreModule } from '../documents-core.module';
import { DriveAccess } from './drive-access';
import { DriveConnection } from './store/drive-connection.entity';
import { DriveConnectionStore } from './store/drive-connection.store';
import { DriveSyncConfiguration } from './store/drive-sync-configuration.entity';
import { DriveSyncRun } from './store/drive-sync-run.entity';
import { DriveSyncedFile } from './store/drive-synced-file.entity';
import { DriveSyncConsumer } from './sync/drive-sync.consumer';
import { DriveSyncController } from './sync/drive-sync.controller';
import { DriveSyncHistoryRetention } from './sync/drive-sync-history-retention';
import { DriveSyncQueue } from './sync/drive-sync-queue';
import { DriveSyncRecords } from './sync/drive-sync-records';
import { DriveSyncRunner } from './sync/drive-sync-runner';
import { DriveSyncs } from './sync/drive-syncs.service';

/** The sync runs: on demand, scheduled, queued and run; their history kept short. */
const SYNC_RUNS = {
  controllers: [DriveSyncController],
  providers: [
    DriveSyncRecords,
    DriveSyncQueue,
    DriveSyncRunner,
    DriveSyncConsumer,
    DriveSyncs,
    DriveSyncHistoryRetention,
  ],
};

/**
 * The cloud-drive sync (spec 4.4, issue 37): an organization connects its identity provider's
 * drive (the shared OAuth flow, purpose `drive`), picks folders to sync into the data room, and
 * runs them on demand or on a schedule.
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
  controllers: [...SYNC_RUNS.controllers],
  providers: [DriveConnectionStore, DriveAccess, ...SYNC_RUNS.providers],
})
export class DriveModule {}
