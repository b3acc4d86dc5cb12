import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Not, Repository } from 'typeorm';
import { AggregateRepository } from '../../../database';
import { DriveSyncConfiguration } from './drive-sync-configuration.entity';

/** The organizations' sync configurations (`drive_sync_configuration`). */
@Injectable()
export class DriveSyncConfigurationRepository extends AggregateRepository<DriveSyncConfiguration> {
  constructor(
    @InjectRepository(DriveSyncConfiguration) repository: Repository<DriveSyncConfiguration>,
  ) {
    super(repository);
  }

  /** The organization's configuration `id`, deleted ones too unless `live`. */
  find(organizationId: string, id: string, live = true) {
    return this.repository.findOneBy({
      id,
      organizationId,
      ...(live ? { deletedAt: IsNull() } : {}),
    });
  }

  /** The organization's live configurations, oldest first. */
  live(organizationId: string) {
    return this.repository.find({
      where: { organizationId, deletedAt: IsNull() },
      order: { created: 'ASC', id: 'ASC' },
    });
  }

  /** The organization's enabled, live configurations, oldest first (what a sync runs). */
  enabled(organizationId: string) {
    return this.repository.find({
      where: { organizationId, syncEnabled: true, deletedAt: IsNull() },
      order: { created: 'ASC', id: 'ASC' },
    });
  }

  /** Another live configuration syncing the same folder into the same target. */
  async taken(
    organizationId: string,
    idpFolderId: string,
    targetDataRoomPath: string,
    except?: string,
  ): Promise<boolean> {
    return this.repository.existsBy({
      organizationId,
      idpFolderId,
      targetDataRoomPath,
      deletedAt: IsNull(),
      ...(except ? { id: Not(except) } : {}),
    });
  }

  async softDelete(organizationId: string, id: string, at: Date): Promise<boolean> {
    const result = await this.repository.update(
      { id, organizationId, deletedAt: IsNull() },
      { deletedAt: at },
    );
    return Boolean(result.affected);
  }
}
