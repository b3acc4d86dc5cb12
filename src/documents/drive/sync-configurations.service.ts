import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock, DomainError } from '../../common';
import { Env } from '../../config';
import { DriveAccess } from './drive-access';
import type { CreateSyncConfigDto, UpdateSyncConfigDto } from './google-drive.dto';
import {
  SyncConfigCreatedView,
  SyncConfigurationView,
  SyncHistoryView,
  toConfigurationView,
  toRunView,
} from './google-drive.view';
import { DriveSyncConfigurationRepository } from './store/drive-sync-configuration.repository';
import { DriveSyncHistoryRepository } from './store/drive-sync-history.repository';
import { Normalised, normaliseFileTypeFilter, normaliseTargetPath } from './sync-target';

const valueOf = (normalised: Normalised): string => {
  if ('problem' in normalised) throw DomainError.badRequest(normalised.problem);
  return normalised.value;
};

const taken = () =>
  DomainError.conflict(
    'a sync configuration already syncs this drive folder into this data-room folder',
  );

/**
 * The organization's sync configurations (which drive folder goes to which data-room folder) and
 * their history. Configurations are kept when the drive is disconnected; a deleted one stays as
 * its history's owner and never runs again.
 */
@Injectable()
export class SyncConfigurations {
  constructor(
    private readonly configurations: DriveSyncConfigurationRepository,
    private readonly history: DriveSyncHistoryRepository,
    private readonly access: DriveAccess,
    private readonly clock: Clock,
    private readonly env: Env,
  ) {}

  async create(
    organizationId: string,
    userId: string,
    dto: CreateSyncConfigDto,
  ): Promise<SyncConfigCreatedView> {
    if (dto.organization !== organizationId) {
      throw DomainError.badRequest('organization must be the organization of the path');
    }
    const targetDataRoomPath = valueOf(normaliseTargetPath(dto.targetDataRoomPath ?? ''));
    const fileTypeFilter = this.filter(dto.fileTypeFilter ?? '');
    await this.access.connected(organizationId);
    if (await this.configurations.taken(organizationId, dto.idpFolderId, targetDataRoomPath)) {
      throw taken();
    }
    // A concurrent twin is refused by the unique index of live configurations (409 too).
    const configuration = await this.configurations.add({
      id: randomUUID(),
      organizationId,
      idpFolderId: dto.idpFolderId,
      idpFolderName: dto.idpFolderName,
      targetDataRoomPath,
      syncEnabled: dto.syncEnabled ?? true,
      syncSubfolders: dto.syncSubfolders ?? false,
      fileTypeFilter,
      createdByUserId: userId,
    });
    return { success: true, configurationId: configuration.id };
  }

  async update(
    organizationId: string,
    id: string,
    dto: UpdateSyncConfigDto,
  ): Promise<SyncConfigurationView> {
    const targetDataRoomPath =
      dto.targetDataRoomPath === undefined
        ? undefined
        : valueOf(normaliseTargetPath(dto.targetDataRoomPath));
    const fileTypeFilter =
      dto.fileTypeFilter === undefined ? undefined : this.filter(dto.fileTypeFilter);
    await this.access.connected(organizationId);
    const configuration = await this.live(organizationId, id);
    if (
      targetDataRoomPath !== undefined &&
      targetDataRoomPath !== configuration.targetDataRoomPath &&
      (await this.configurations.taken(
        organizationId,
        configuration.idpFolderId,
        targetDataRoomPath,
        id,
      ))
    ) {
      throw taken();
    }
    if (dto.syncEnabled !== undefined) configuration.syncEnabled = dto.syncEnabled;
    if (dto.syncSubfolders !== undefined) configuration.syncSubfolders = dto.syncSubfolders;
    if (targetDataRoomPath !== undefined) configuration.targetDataRoomPath = targetDataRoomPath;
    if (fileTypeFilter !== undefined) configuration.fileTypeFilter = fileTypeFilter;
    return toConfigurationView(await this.configurations.save(configuration));
  }

  async remove(organizationId: string, id: string): Promise<void> {
    await this.access.connected(organizationId);
    if (!(await this.configurations.softDelete(organizationId, id, this.clock.now()))) {
      throw DomainError.notFound();
    }
  }

  /** The newest runs, of one configuration when named (of this organization: else 404). */
  async list(organizationId: string, configurationId?: string): Promise<SyncHistoryView> {
    if (
      configurationId &&
      !(await this.configurations.find(organizationId, configurationId, false))
    ) {
      throw DomainError.notFound(
        'configurationId is not a sync configuration of this organization',
      );
    }
    const runs = await this.history.newest(organizationId, configurationId);
    return { history: runs.map(toRunView) };
  }

  private filter(filter: string): string {
    return valueOf(normaliseFileTypeFilter(filter, this.env.STORAGE_ALLOWED_EXTENSIONS));
  }

  /** The guard found it; gone since (deleted meanwhile) is 404 as well. */
  private async live(organizationId: string, id: string) {
    const configuration = await this.configurations.find(organizationId, id);
    if (!configuration) throw DomainError.notFound();
    return configuration;
  }
}
