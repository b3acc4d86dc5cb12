import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AggregateRepository } from '../../../database';
import { DriveSyncRun } from './drive-sync-run.entity';

/** What the history route answers at most (spec section 8). */
export const HISTORY_LIMIT = 50;

/** The runs of the organizations' sync configurations (`drive_sync_history`), for reading. */
@Injectable()
export class DriveSyncHistoryRepository extends AggregateRepository<DriveSyncRun> {
  constructor(@InjectRepository(DriveSyncRun) repository: Repository<DriveSyncRun>) {
    super(repository);
  }

  /** The organization's newest runs (of one configuration, when given), newest first. */
  newest(organizationId: string, configurationId?: string): Promise<DriveSyncRun[]> {
    return this.repository.find({
      where: { organizationId, ...(configurationId ? { configurationId } : {}) },
      order: { triggeredAt: 'DESC', id: 'DESC' },
      take: HISTORY_LIMIT,
    });
  }
}
