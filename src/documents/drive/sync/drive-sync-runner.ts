import { Injectable, Logger } from '@nestjs/common';
import { describeFailure, providerFailure } from '../../../auth';
import { AccessContext, Clock } from '../../../common';
import { Env } from '../../../config';
import type { DriveSyncJob, Tx } from '../../../events';
import { DocumentStore, OrganizationsDirectory } from '../../../organizations';
import { extensionOf } from '../../files/file-types';
import { DriveAccess, DriveGrantRefused } from '../drive-access';
import { DriveSyncConfigurationRepository } from '../store/drive-sync-configuration.repository';
import { DriveApi, DriveItem, EXPORT_MAX_BYTES, exportFormat, TooLargeError } from '../drive-api';
import { DriveConnectionStore } from '../store/drive-connection.store';
import type { DriveSyncConfiguration } from '../store/drive-sync-configuration.entity';
import { DriveSyncRecords, FileCounts } from './drive-sync-records';
import type { SyncDestination } from './sync-destination';
import { SyncDestinations } from './sync-destinations';

/** Folders below the synced one a run walks at most (Drive lets a folder sit in itself). */
const MAX_DEPTH = 20;

/** Why a run could not start; its history entry says so. */
class RunRefused extends Error {}

/** What one run works with. */
interface RunContext {
  api: DriveApi;
  destination: SyncDestination;
  configuration: DriveSyncConfiguration;
  extensions: Set<string> | null;
  maxBytes: number;
  counts: FileCounts;
  visited: Set<string>;
}

/** A drive file as it lands in the store: its name there, and how its bytes are read. */
interface Landing {
  name: string;
  changeKey: string;
  exportAs: string | null;
}

/**
 * One run of a sync configuration: its history entry goes `running` → `completed` (whatever
 * happened to single files) or `failed` (with why: the acting member may no longer edit
 * documents, the drive refused the grant, the folder could not be read). Each file is written
 * on its own to the organization's store, the data room or the productivity-suite store (its
 * rules, its `document.uploaded`), so a failure leaves the files before it in place and the run
 * goes on.
 */
@Injectable()
export class DriveSyncRunner {
  private readonly logger = new Logger('DriveSync');

  constructor(
    private readonly records: DriveSyncRecords,
    private readonly configurations: DriveSyncConfigurationRepository,
    private readonly drive: DriveAccess,
    private readonly connections: DriveConnectionStore,
    private readonly destinations: SyncDestinations,
    private readonly organizations: OrganizationsDirectory,
    private readonly env: Env,
    private readonly clock: Clock,
  ) {}

  async run(job: DriveSyncJob): Promise<void> {
    // A configuration deleted since the trigger never runs.
    const configuration = await this.configurations.find(job.organizationId, job.configurationId);
    if (!configuration) return;
    const run = await this.records.startRun(job, this.clock.now());
    if (!run) return;
    const counts: FileCounts = { filesAdded: 0, filesUpdated: 0, filesSkipped: 0, filesFailed: 0 };
    try {
      const actor = job.triggeredByUserId ?? configuration.createdByUserId;
      await this.assertMayEdit(actor, job.organizationId);
      const store = await this.storeOf(job.organizationId);
      await this.drive.use(job.organizationId, async (client) => {
        const context: RunContext = {
          api: new DriveApi(client, this.env.IDP_DRIVE_API_URL),
          destination: this.destinations.for(store, actingAs(actor, job.organizationId)),
          configuration,
          extensions: configuration.fileTypeFilter
            ? new Set(configuration.fileTypeFilter.split(','))
            : null,
          maxBytes: this.env.DATA_ROOM_UPLOAD_SIZE_LIMIT_MB * 1024 * 1024,
          counts,
          visited: new Set(),
        };
        const target = configuration.targetDataRoomPath
          ? configuration.targetDataRoomPath.split('/')
          : [];
        await this.walk(context, configuration.idpFolderId, target, 0);
      });
      await this.records.finishRun(run, 'completed', counts, null, this.clock.now());
      await this.connections.noteSync(job.organizationId, this.clock.now(), null);
    } catch (err) {
      const message = failureMessage(err);
      if (!(err instanceof RunRefused) && !(err instanceof DriveGrantRefused)) {
        this.logger.warn(`sync run ${run.id} failed: ${message}`);
      }
      await this.records.finishRun(run, 'failed', counts, message, this.clock.now());
    }
  }

  private async assertMayEdit(userId: string, organizationId: string): Promise<void> {
    const permitting = await this.organizations.organizationsPermitting(userId, 'canEditDocuments');
    if (!permitting.includes(organizationId)) {
      throw new RunRefused(
        'the member the run acts as (who triggered it, or for a scheduled run who created the ' +
          'configuration) may no longer edit documents in this organization',
      );
    }
  }

  /** The organization's store, read once per run: it may change only while it has no documents. */
  private async storeOf(organizationId: string): Promise<DocumentStore> {
    const organization = await this.organizations.organizationView(organizationId);
    return organization?.documentStore ?? 'dataRoom';
  }

  /** The folder's files, then (when enabled) its subfolders as the store's folders under `path`. */
  private async walk(context: RunContext, folderId: string, path: string[], depth: number) {
    if (context.visited.has(folderId) || depth > MAX_DEPTH) return;
    context.visited.add(folderId);
    const parent = await context.destination.folderAt(path).then(
      (id) => ({ id, error: null }),
      (error: unknown) => ({ id: null, error }),
    );
    const subfolders: DriveItem[] = [];
    for await (const item of context.api.children(folderId)) {
      if (item.isFolder) {
        if (context.configuration.syncSubfolders) subfolders.push(item);
        continue;
      }
      const landing = this.landingOf(context, item);
      if (!landing) continue;
      try {
        if (parent.error) throw parent.error;
        context.counts[await this.syncFile(context, item, landing, parent.id)]++;
      } catch (err) {
        if (isGrantRefusal(err)) throw err;
        context.counts.filesFailed++;
        this.logger.warn(
          `sync of configuration ${context.configuration.id}: file ${item.id} failed: ` +
            failureMessage(err),
        );
      }
    }
    for (const folder of subfolders) {
      await this.walk(context, folder.id, [...path, folder.name], depth + 1);
    }
  }

  /** Null for a file the run does not count: filtered out, or a native type not exported. */
  private landingOf(context: RunContext, item: DriveItem): Landing | null {
    let landing: Landing;
    if (item.native) {
      const format = exportFormat(item.mimeType);
      if (!format) return null;
      landing = {
        name: `${item.name}.${format.extension}`,
        changeKey: item.modifiedTime,
        exportAs: format.mimeType,
      };
    } else {
      landing = {
        name: item.name,
        changeKey: item.md5Checksum ?? item.modifiedTime,
        exportAs: null,
      };
    }
    if (context.extensions && !context.extensions.has(extensionOf(landing.name))) return null;
    return landing;
  }

  private async syncFile(
    context: RunContext,
    item: DriveItem,
    landing: Landing,
    parentFolder: string | null,
  ): Promise<keyof FileCounts> {
    const configurationId = context.configuration.id;
    const known = await this.records.syncedFile(configurationId, item.id);
    if (known?.changeKey === landing.changeKey) return 'filesSkipped';
    if (item.size !== undefined && item.size > context.maxBytes) {
      throw new TooLargeError(context.maxBytes);
    }
    const buffer = landing.exportAs
      ? await context.api.export(
          item.id,
          landing.exportAs,
          Math.min(context.maxBytes, EXPORT_MAX_BYTES),
        )
      : await context.api.download(item.id, context.maxBytes);
    const file = { name: landing.name, bytes: buffer };
    // The document and the version it holds commit together: a crash between them would leave
    // a document the next run does not know as its own (its name then taken).
    const keep = (tx: Tx, documentId: string) =>
      this.records.keepSyncedFile(tx, configurationId, item.id, documentId, landing.changeKey);
    const { destination } = context;
    // A document deleted from the store (here or, for the suite, in the drive itself): the file
    // comes back as a new one.
    if (known && (await destination.exists(known.documentId))) {
      if (await destination.replace(known.documentId, file, keep)) return 'filesUpdated';
    }
    await destination.add(parentFolder, file, keep);
    return 'filesAdded';
  }
}

/** The access a run's writes are made with: the acting member's, in the organization. */
function actingAs(userId: string, organizationId: string): AccessContext {
  return {
    userId,
    organizationId,
    organization: null,
    memberId: null,
    roleId: null,
    scope: 'all',
    permissions: new Set(['canEditDocuments']),
    versions: {},
  };
}

/** A refusal of the grant ends the run (DriveAccess notes it on the connection). */
const isGrantRefusal = (err: unknown) => {
  const failure = providerFailure(err);
  return failure === 'invalidGrant' || failure === 'unauthorized';
};

/** A failure in words fit for the history: a provider's status, never its request or tokens. */
function failureMessage(err: unknown): string {
  if (providerFailure(err)) return `the drive refused the call (${describeFailure(err)})`;
  return err instanceof Error ? err.message : String(err);
}
