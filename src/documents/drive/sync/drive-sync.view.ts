import { ApiProperty } from '@nestjs/swagger';
import type { DriveSyncStatus } from '../store/drive-sync-run.entity';

/** What one run of the sync did, from its history entry. */
export class DriveSyncResultView {
  @ApiProperty({ format: 'uuid' })
  configurationId: string;

  /** `running` when it had not ended within the wait (its history entry tells the rest later). */
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

export class DriveSyncResultsView {
  @ApiProperty({ type: [DriveSyncResultView] })
  results: DriveSyncResultView[];
}
