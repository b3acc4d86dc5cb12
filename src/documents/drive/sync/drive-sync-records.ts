import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import type { DriveSyncJob, Tx } from '../../../events';
import { DriveConnection } from '../store/drive-connection.entity';
import { DriveSyncConfiguration } from '../store/drive-sync-configuration.entity';
import { DriveSyncRun, DriveSyncStatus } from '../store/drive-sync-run.entity';
import { DriveSyncedFile } from '../store/drive-synced-file.entity';

/** What a run did to the files it saw. */
export interface FileCounts {
  filesAdded: number;
  filesUpdated: number;
  filesSkipped: number;
  filesFailed: number;
}

/** The rows the sync runs read and write: configurations, history entries, synced files. */
@Injectable()
export class DriveSyncRecords {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get manager() {
    return this.dataSource.manager;
  }

  /** Every enabled, live configuration whose organization's connection is active. */
  scheduledConfigurations(): Promise<Pick<DriveSyncConfiguration, 'id' | 'organizationId'>[]> {
    return this.manager
      .createQueryBuilder(DriveSyncConfiguration, 'c')
      .innerJoin(DriveConnection, 'd', 'd.organization_id = c.organization_id AND d.active')
      .select(['c.id', 'c.organizationId'])
      .where('c.deleted_at IS NULL AND c.sync_enabled')
      .orderBy('c.created', 'ASC')
      .getMany();
  }

  /**
   * The job's history entry, `running` from now; null when it exists already (a job Bull handed
   * out again after a stall): that run is not started twice.
   */
  async startRun(job: DriveSyncJob, now: Date): Promise<DriveSyncRun | null> {
    const inserted = await this.manager
      .createQueryBuilder()
      .insert()
      .into(DriveSyncRun)
      .values({
        id: job.runId,
        organizationId: job.organizationId,
        configurationId: job.configurationId,
        status: 'running',
        errorMessage: null,
        triggeredByUserId: job.triggeredByUserId,
        triggeredAt: new Date(job.triggeredAt),
        startedAt: now,
        completedAt: null,
      })
      .orIgnore()
      .returning(['id'])
      .execute();
    if (!(inserted.raw as unknown[]).length) return null;
    return this.manager.findOneByOrFail(DriveSyncRun, { id: job.runId });
  }

  async finishRun(
    run: DriveSyncRun,
    status: Exclude<DriveSyncStatus, 'running'>,
    counts: FileCounts,
    errorMessage: string | null,
    now: Date,
  ): Promise<void> {
    const filesProcessed =
      counts.filesAdded + counts.filesUpdated + counts.filesSkipped + counts.filesFailed;
    await this.manager.update(
      DriveSyncRun,
      { id: run.id },
      { status, errorMessage, ...counts, filesProcessed, completedAt: now },
    );
    await this.manager.update(
      DriveSyncConfiguration,
      { id: run.configurationId },
      { lastSyncAt: now, syncError: errorMessage },
    );
  }

  runs(ids: string[]): Promise<DriveSyncRun[]> {
    return ids.length ? this.manager.findBy(DriveSyncRun, { id: In(ids) }) : Promise.resolve([]);
  }

  syncedFile(configurationId: string, idpFileId: string) {
    return this.manager.findOneBy(DriveSyncedFile, { configurationId, idpFileId });
  }

  /** Notes the version a document holds, in the transaction that wrote it. */
  async keepSyncedFile(
    tx: Tx,
    configurationId: string,
    idpFileId: string,
    documentId: string,
    changeKey: string,
  ): Promise<void> {
    await tx.manager.upsert(
      DriveSyncedFile,
      { configurationId, idpFileId, documentId, changeKey },
      ['configurationId', 'idpFileId'],
    );
  }
}
