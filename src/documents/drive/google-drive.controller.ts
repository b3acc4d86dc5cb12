import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { IdpConfiguredGuard } from '../../auth';
import {
  Access,
  AccessContext,
  ApiErrors,
  ApiKeyedErrors,
  EMPTY_OBJECT,
  Permission,
} from '../../common';
import { DriveConnections } from './drive-connections.service';
import { DriveFolders } from './drive-folders.service';
import { SYNC_CONFIGURATION } from './drive-records';
import {
  CreateSyncConfigDto,
  DriveConnectDto,
  DriveFoldersQuery,
  SyncHistoryQuery,
  UpdateSyncConfigDto,
} from './google-drive.dto';
import {
  DriveAuthUrlView,
  DriveConnectedView,
  DriveFolderView,
  DriveStatusView,
  SyncConfigCreatedView,
  SyncConfigurationView,
  SyncHistoryView,
} from './google-drive.view';
import { SyncConfigurations } from './sync-configurations.service';

const DISABLED =
  'Disabled when NODE_ENV=production: the route then answers 404 like an unknown path. While ' +
  'IDP_DRIVE_CLIENT_ID, IDP_DRIVE_CLIENT_SECRET or IDP_DRIVE_SYNC_REDIRECT_URI is unset: 500 ' +
  '`driveNotConfigured` naming it (after the session and permission checks).';
const UNAVAILABLE: [number, string] = [
  503,
  'The identity provider did not answer within 10 s or failed (5xx, 429) `{error, message}`; ' +
    'try again',
];
const NOT_CONNECTED = '409 `driveNotConnected` while no drive is connected.';
/** `driveNotConnected` (keyed) and a taken folder and target (not keyed) share the status. */
const CONFLICT: [number, string] = [
  409,
  '`{error, key: "driveNotConnected", message}`: no drive is connected; or `{error, message}`: ' +
    'another live configuration syncs the same drive folder into the same data-room folder',
];
const CONFIG_ID =
  'A configuration id of another organization, deleted or unknown → 404 (by the permission check).';

/**
 * The organization's cloud drive (spec 4.4): connect it (OAuth 2.0 web-server flow, purpose
 * `drive`), browse its folders, and configure which folders sync into its document store.
 */
@ApiTags('documents')
@Controller('v1/organization/:organization/google-drive')
@UseGuards(IdpConfiguredGuard('drive'))
export class GoogleDriveController {
  constructor(
    private readonly connections: DriveConnections,
    private readonly folders: DriveFolders,
    private readonly configurations: SyncConfigurations,
  ) {}

  @Get('auth-url')
  @Permission('canEditDocuments')
  @ApiOperation({
    summary: 'Where to send the browser to connect the organization’s cloud drive',
    description:
      'Requires `canEditDocuments`. The provider’s consent URL (drive read-only and the ' +
      'account’s e-mail, `access_type=offline`, `prompt=consent`, an S256 PKCE challenge, a ' +
      'random 32-byte `state`). The state and verifier wait 10 minutes in the session under this ' +
      'organization, for one `POST .../google-drive/connect`; a later call for the same ' +
      `organization replaces them, other organizations’ stay. ${DISABLED}`,
  })
  @ApiOkResponse({ type: DriveAuthUrlView })
  @ApiKeyedErrors('driveNotConfigured')
  authUrl(@Access() access: AccessContext, @Req() req: Request): Promise<DriveAuthUrlView> {
    return this.connections.authUrl(req.session, access.organizationId!);
  }

  @Post('connect')
  @HttpCode(200)
  @Permission('canEditDocuments')
  @ApiOperation({
    summary: 'Connect the organization’s cloud drive with the code of its redirect',
    description:
      'Requires `canEditDocuments`. Uses up this session’s pending authorization of the ' +
      'organization (every call, whatever its outcome) and exchanges the code with its PKCE ' +
      'verifier. `state` is optional (the PKCE verifier already ties the code to this session); ' +
      'when given it must be the pending one. 400: `organization` is not the path’s, no pending ' +
      'authorization (none, expired after 10 minutes, already used), a wrong `state`, the ' +
      'provider refuses the code (`invalid_grant`: wrong, used, or consented in another ' +
      'session), or the drive permission was not granted. The e-mail comes from the ID token, ' +
      'else the drive’s `about`. The organization has one connection: a reconnect replaces its ' +
      'tokens (even for another account, whose grant is then revoked) and keeps its id and ' +
      `configurations. Tokens are stored sealed (AES-256-GCM). ${DISABLED}`,
  })
  @ApiOkResponse({ type: DriveConnectedView })
  @ApiKeyedErrors('driveNotConfigured', 'invalidFields')
  @ApiErrors(UNAVAILABLE)
  connect(
    @Access() access: AccessContext,
    @Req() req: Request,
    @Body() dto: DriveConnectDto,
  ): Promise<DriveConnectedView> {
    return this.connections.connect(req.session, access.organizationId!, access.userId, dto);
  }

  @Delete('connection')
  @Permission('canEditDocuments')
  @ApiOperation({
    summary: 'Disconnect the organization’s cloud drive',
    description:
      'Requires `canEditDocuments`. The connection becomes inactive, its tokens are wiped and ' +
      'the grant is revoked at the provider (best effort: a failure is only logged). Sync ' +
      'configurations and the documents synced into the document store stay. 404 when no drive is ' +
      `connected. ${DISABLED}`,
  })
  @ApiOkResponse({ description: '`{}`: disconnected', schema: EMPTY_OBJECT })
  @ApiKeyedErrors('driveNotConfigured')
  async disconnect(@Access() access: AccessContext): Promise<object> {
    await this.connections.disconnect(access.organizationId!);
    return {};
  }

  @Get('status')
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'The organization’s cloud-drive connection and its sync configurations',
    description:
      'Requires `canViewOrganization`. `{connected: false}` alone when no drive is connected ' +
      '(never, or disconnected); else the connection (`syncError` says why the drive refused ' +
      `its grant) and its live configurations, oldest first. ${DISABLED}`,
  })
  @ApiOkResponse({ type: DriveStatusView })
  @ApiKeyedErrors('driveNotConfigured')
  status(@Access() access: AccessContext): Promise<DriveStatusView> {
    return this.connections.status(access.organizationId!);
  }

  @Get('folders')
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'The folders of the connected drive',
    description:
      'Requires `canViewOrganization`. The folders (not trashed) directly in `parentId` ' +
      '(`root`, the default: the top level), by name, at most 1,000. `parentId` must match ' +
      '`^[A-Za-z0-9_-]{1,128}$` (400); a folder the drive does not know → 404. ' +
      `${NOT_CONNECTED} A grant the drive refuses (revoked) → 409 \`driveNotConnected\` too, ` +
      `noted as the connection’s \`syncError\`. ${DISABLED}`,
  })
  @ApiOkResponse({ type: [DriveFolderView] })
  @ApiKeyedErrors('driveNotConfigured', 'driveNotConnected')
  @ApiErrors(UNAVAILABLE)
  list(
    @Access() access: AccessContext,
    @Query() query: DriveFoldersQuery,
  ): Promise<DriveFolderView[]> {
    return this.folders.list(access.organizationId!, query.parentId);
  }

  @Post('sync-config')
  @Permission('canEditDocuments')
  @ApiOperation({
    summary: 'Sync a drive folder into the organization’s document store',
    description:
      'Requires `canEditDocuments`. `organization` must be the path’s (400). ' +
      '`targetDataRoomPath` and `fileTypeFilter` are normalised as their fields say (400 when ' +
      'they cannot be). Enabled unless `syncEnabled: false`; subfolders only with ' +
      '`syncSubfolders: true`. Runs act as their trigger user or, scheduled, as the ' +
      `configuration’s creator. ${NOT_CONNECTED} ${DISABLED}`,
  })
  @ApiCreatedResponse({ type: SyncConfigCreatedView })
  @ApiKeyedErrors('driveNotConfigured', 'invalidFields')
  @ApiErrors(CONFLICT)
  create(
    @Access() access: AccessContext,
    @Body() dto: CreateSyncConfigDto,
  ): Promise<SyncConfigCreatedView> {
    return this.configurations.create(access.organizationId!, access.userId, dto);
  }

  @Patch('sync-config/:id')
  @Permission('canEditDocuments', { record: SYNC_CONFIGURATION, param: 'id' })
  @ApiOperation({
    summary: 'Change a sync configuration',
    description:
      'Requires `canEditDocuments`. Any of `syncEnabled`, `targetDataRoomPath`, ' +
      '`syncSubfolders`, `fileTypeFilter` (normalised as on creation); what is left out stays. ' +
      `Answers the configuration. ${CONFIG_ID} ${NOT_CONNECTED} ${DISABLED}`,
  })
  @ApiOkResponse({ type: SyncConfigurationView })
  @ApiKeyedErrors('driveNotConfigured')
  @ApiErrors(CONFLICT)
  update(
    @Access() access: AccessContext,
    @Param('id') id: string,
    @Body() dto: UpdateSyncConfigDto,
  ): Promise<SyncConfigurationView> {
    return this.configurations.update(access.organizationId!, id, dto);
  }

  @Delete('sync-config/:id')
  @Permission('canEditDocuments', { record: SYNC_CONFIGURATION, param: 'id' })
  @ApiOperation({
    summary: 'Delete a sync configuration',
    description:
      'Requires `canEditDocuments`. A soft delete: it never runs again and answers 404 ' +
      'afterwards; its history and the documents it synced stay. ' +
      `${CONFIG_ID} ${NOT_CONNECTED} ${DISABLED}`,
  })
  @ApiOkResponse({ description: '`{}`: deleted', schema: EMPTY_OBJECT })
  @ApiKeyedErrors('driveNotConfigured', 'driveNotConnected')
  async remove(@Access() access: AccessContext, @Param('id') id: string): Promise<object> {
    await this.configurations.remove(access.organizationId!, id);
    return {};
  }

  @Get('sync-history')
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'The organization’s sync runs',
    description:
      'Requires `canViewOrganization`. Newest first (by when they were asked for), at most 50; ' +
      'with `configurationId`, that configuration’s only (one of this organization’s, deleted ' +
      `ones included: else 404). Answered whether or not a drive is connected. ${DISABLED}`,
  })
  @ApiOkResponse({ type: SyncHistoryView })
  @ApiKeyedErrors('driveNotConfigured')
  history(
    @Access() access: AccessContext,
    @Query() query: SyncHistoryQuery,
  ): Promise<SyncHistoryView> {
    return this.configurations.list(access.organizationId!, query.configurationId);
  }
}
