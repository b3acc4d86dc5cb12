import { ApiProperty } from '@nestjs/swagger';
import { SyncOutcomeView } from '../google-drive.view';

/**
 * What one run of the sync did, from its history entry; `running` when it had not ended within
 * the wait (its history entry tells the rest later).
 */
export class DriveSyncResultView extends SyncOutcomeView {}

export class DriveSyncResultsView {
  @ApiProperty({ type: [DriveSyncResultView] })
  results: DriveSyncResultView[];
}
