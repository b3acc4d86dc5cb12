import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../../database';
import { StoredFile } from './stored-file.entity';

/** The user's member records (not removed) in organizations that are not deleted. */
const OWN_MEMBERS = `SELECT m.id FROM member m JOIN organization o ON o.id = m.organization_id
  WHERE m.user_id = :userId AND m.status <> 'removed' AND o.deleted_at IS NULL`;

/** Reads of stored files (FileStore writes them) and their soft deletion. */
@Injectable()
export class StoredFileRepository extends AggregateRepository<StoredFile> {
  constructor(@InjectRepository(StoredFile) files: Repository<StoredFile>) {
    super(files);
  }

  /** The file unless it was deleted. */
  findLive(id: string, tx?: InTransaction): Promise<StoredFile | null> {
    return this.repo(tx).findOneBy({ id, deletedAt: IsNull() });
  }

  /** Marks the files deleted; their bytes stay in storage (a soft delete can be undone). */
  async markDeleted(ids: string[], tx: InTransaction): Promise<void> {
    if (!ids.length) return;
    await this.repo(tx).update({ id: In(ids), deletedAt: IsNull() }, { deletedAt: new Date() });
  }

  /**
   * The files linked to the user's own incentives, oldest first: those of a holding of a member
   * record of theirs, and those of a plan in which such a member holds a grant (only grants carry
   * a plan; not a deleted plan). Only organizations that are not deleted, only member records that are not removed.
   */
  incentiveDocumentsOf(userId: string): Promise<StoredFile[]> {
    return this.repository
      .createQueryBuilder('f')
      .where('f.deleted_at IS NULL')
      .andWhere(
        `(f.holding_id IN (SELECT h.id FROM holding h WHERE h.member_id IN (${OWN_MEMBERS}))
          OR f.plan_id IN (SELECT p.id FROM stock_plan p WHERE p.deleted_at IS NULL AND p.id IN (
               SELECT h.plan_id FROM holding h WHERE h.member_id IN (${OWN_MEMBERS}))))`,
        { userId },
      )
      .orderBy('f.created', 'ASC')
      .addOrderBy('f.id', 'ASC')
      .getMany();
  }
}
