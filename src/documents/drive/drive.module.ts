import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdpOAuthModule } from '../../auth';
import { DriveAccess } from './drive-access';
import { DriveConnection } from './store/drive-connection.entity';
import { DriveConnectionStore } from './store/drive-connection.store';
import { DriveSyncConfiguration } from './store/drive-sync-configuration.entity';
import { DriveSyncRun } from './store/drive-sync-run.entity';
import { DriveSyncedFile } from './store/drive-synced-file.entity';

/**
 * The cloud-drive sync (spec 4.4, issue 37): an organization connects its identity provider's
 * drive (the shared OAuth flow, purpose `drive`), picks folders to sync into the data room, and
 * runs them on demand or on a schedule.
 */
@Module({
  imports: [
    IdpOAuthModule,
    TypeOrmModule.forFeature([
      DriveConnection,
      DriveSyncConfiguration,
      DriveSyncRun,
      DriveSyncedFile,
    ]),
  ],
  providers: [DriveConnectionStore, DriveAccess],
})
export class DriveModule {}
