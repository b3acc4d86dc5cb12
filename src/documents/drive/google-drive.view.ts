import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SuccessResponse } from '../../common';
import type { DriveSyncConfiguration } from './store/drive-sync-configuration.entity';
import type { DriveSyncRun, DriveSyncStatus } from './store/drive-sync-run.entity';

export class DriveAuthUrlView {
  /**
   * The identity provider's consent page (drive read-only, the account's e-mail, offline access,
   * `prompt=consent`, PKCE); its `state` is good for one connect of this organization in this
   * session within 10 minutes.
   */
  url: string;
}

export class DriveConnectedView extends SuccessResponse {
  @ApiProperty({ format: 'uuid' })
  connectionId: string;

  /** The connected account's e-mail; null when the provider did not share it. */
  @ApiProperty({ type: String, nullable: true })
  email: string | null;
}

/** A sync configuration (spec section 2). */
export class SyncConfigurationView {
  @ApiProperty({ format: 'uuid' })
  id: string;

  /** The drive folder synced. */
  idpFolderId: string;

  idpFolderName: string;

  /** `/`-separated data-room folder names; '' is the top level. */
  targetDataRoomPath: string;

  syncEnabled: boolean;

  syncSubfolders: boolean;

  /** Normalised extensions (`pdf,txt`); '' = every accepted type. */
  fileTypeFilter: string;

  /** When it last ran; null before its first run. */
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastSyncAt: string | null;

  /** Why its last run failed; null when it did not. */
  @ApiProperty({ type: String, nullable: true })
  syncError: string | null;
}

/** The organization's cloud-drive connection (spec section 2): `{connected: false}` alone. */
export class DriveStatusView {
  connected: boolean;

  @ApiPropertyOptional({ format: 'uuid' })
  connectionId?: string;

  /** The connected account's e-mail; null when the provider did not share it. */
  @ApiPropertyOptional({ type: String, nullable: true })
  email?: string | null;

  /** When a run last ended; null before the first. */
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  lastSyncAt?: string | null;

  /** Why the drive refused the connection's grant; null when it did not. */
  @ApiPropertyOptional({ type: String, nullable: true })
  syncError?: string | null;

  /** The live (not deleted) configurations, oldest first. */
  @ApiPropertyOptional({ type: [SyncConfigurationView] })
  syncConfigurations?: SyncConfigurationView[];
}

export class DriveFolderView {
  /** The folder's drive id (a `parentId`, an `idpFolderId`). */
  id: string;
  name: string;
}

export class SyncConfigCreatedView extends SuccessResponse {
  @ApiProperty({ format: 'uuid' })
  configurationId: string;
}

/** What a run of a sync configuration did: its state and what it did to the files it saw. */
export class SyncOutcomeView {
  @ApiProperty({ format: 'uuid' })
  configurationId: string;

  @ApiProperty({ enum: ['running', 'completed', 'failed'] })
  status: DriveSyncStatus;

  /** The sum of the four counts below. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  filesProcessed: number;
  @ApiProperty({ type: 'integer', minimum: 0 })
  filesAdded: number;
  @ApiProperty({ type: 'integer', minimum: 0 })
  filesUpdated: number;
  @ApiProperty({ type: 'integer', minimum: 0 })
  filesSkipped: number;
  @ApiProperty({ type: 'integer', minimum: 0 })
  filesFailed: number;
}

/** A sync history entry (spec section 2). */
export class SyncRunView extends SyncOutcomeView {
  @ApiProperty({ format: 'uuid' })
  id: string;

  /** Why the run failed; null when it did not. */
  @ApiProperty({ type: String, nullable: true })
  errorMessage: string | null;

  /** When it was asked for. */
  @ApiProperty({ format: 'date-time' })
  triggeredAt: string;

  /** When it began; null while it waits. */
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  startedAt: string | null;

  /** When it ended; null while it runs. */
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  completedAt: string | null;
}

export class SyncHistoryView {
  /** Newest first, at most 50. */
  @ApiProperty({ type: [SyncRunView] })
  history: SyncRunView[];
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toConfigurationView = (c: DriveSyncConfiguration): SyncConfigurationView => ({
  id: c.id,
  idpFolderId: c.idpFolderId,
  idpFolderName: c.idpFolderName,
  targetDataRoomPath: c.targetDataRoomPath,
  syncEnabled: c.syncEnabled,
  syncSubfolders: c.syncSubfolders,
  fileTypeFilter: c.fileTypeFilter,
  lastSyncAt: iso(c.lastSyncAt),
  syncError: c.syncError,
});

export const toRunView = (r: DriveSyncRun): SyncRunView => ({
  id: r.id,
  configurationId: r.configurationId,
  status: r.status,
  errorMessage: r.errorMessage,
  filesProcessed: r.filesProcessed,
  filesAdded: r.filesAdded,
  filesUpdated: r.filesUpdated,
  filesSkipped: r.filesSkipped,
  filesFailed: r.filesFailed,
  triggeredAt: r.triggeredAt.toISOString(),
  startedAt: iso(r.startedAt),
  completedAt: iso(r.completedAt),
});
