import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdpConfiguredGuard } from '../../../auth';
import { Access, AccessContext, ApiErrors, ApiKeyedErrors, Permission } from '../../../common';
import { SYNC_CONFIGURATION } from '../drive-records';
import { DriveSyncDto } from './drive-sync.dto';
import { DriveSyncResultsView } from './drive-sync.view';
import { DriveSyncs, SYNC_WAIT_MS } from './drive-syncs.service';

/**
 * Running the cloud-drive sync on demand (spec 4.4). The guard after the session and permission
 * answers 500 `driveNotConfigured` while the drive's OAuth settings are incomplete.
 */
@ApiTags('documents')
@Controller('v1/organization/:organization/google-drive')
@UseGuards(IdpConfiguredGuard('drive'))
export class DriveSyncController {
  constructor(private readonly syncs: DriveSyncs) {}

  @Post('sync')
  @HttpCode(200)
  @Permission('canEditDocuments', { bodyRecords: { configurationId: SYNC_CONFIGURATION } })
  @ApiOperation({
    summary: 'Sync the drive’s folders into the organization’s document store now',
    description:
      'Requires `canEditDocuments`. Runs the configuration named by `configurationId` (even ' +
      'disabled), or every enabled one, as the caller: new drive files are added to the ' +
      'organization’s document store (the data room or the productivity-suite store), changed ' +
      'ones get new content (same document), unchanged ones are skipped; a file ' +
      'over DATA_ROOM_UPLOAD_SIZE_LIMIT_MB, whose name another document has, or that cannot be ' +
      'read counts as failed and the run goes on. A run of a configuration already queued or ' +
      'running is joined, not started twice. Answers once every run ended, from their history ' +
      `entries, or after ${SYNC_WAIT_MS / 1000} s with those still going as \`running\`; a ` +
      'failed run (the grant refused, the caller no longer allowed) is answered `failed`, still ' +
      '200. A configuration deleted or of another organization → 404. Disabled when ' +
      'NODE_ENV=production.',
  })
  @ApiOkResponse({ type: DriveSyncResultsView })
  @ApiKeyedErrors('driveNotConnected', 'driveNotConfigured')
  @ApiErrors([400, '`organization` is not the path’s, or `configurationId` is not a UUID'])
  sync(@Access() access: AccessContext, @Body() dto: DriveSyncDto): Promise<DriveSyncResultsView> {
    return this.syncs.sync(access, dto);
  }
}
