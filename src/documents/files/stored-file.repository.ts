import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../../database';
import { StoredFile } from './stored-file.entity';
import { Clock } from '../../common';

/** Reads of stored files (FileStore writes them) and their soft deletion. */
@Injectable()
export class StoredFileRepository extends AggregateRepository<StoredFile> {
  constructor(
    @InjectRepository(StoredFile) files: Repository<StoredFile>,
    private readonly clock: Clock,
  ) {
    super(files);
  }

  /** The file unless it was deleted. */
  findLive(id: string, tx?: InTransaction): Promise<StoredFile | null> {
    return this.repo(tx).findOneBy({ id, deletedAt: IsNull() });
  }

  /** Marks the files deleted; their bytes stay in storage (a soft delete can be undone). */
  async markDeleted(ids: string[], tx: InTransaction): Promise<void> {
    if (!ids.length) return;
    await this.repo(tx).update(
      { id: In(ids), deletedAt: IsNull() },
      { deletedAt: this.clock.now() },
    );
  }

  /** The files (not deleted) linked to one of the holdings or plans, oldest first. */
  async linkedTo(holdingIds: string[], planIds: string[]): Promise<StoredFile[]> {
    if (!holdingIds.length && !planIds.length) return [];
    return this.repository
      .createQueryBuilder('f')
      .where('f.deleted_at IS NULL')
      .andWhere('(f.holding_id = ANY(:holdingIds::uuid[]) OR f.plan_id = ANY(:planIds::uuid[]))', {
        holdingIds,
        planIds,
      })
      .orderBy('f.created', 'ASC')
      .addOrderBy('f.id', 'ASC')
      .getMany();
  }
}
