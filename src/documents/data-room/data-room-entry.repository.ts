import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Not, Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../../database';
import { StoredFile } from '../files/stored-file.entity';
import { DataRoomEntry } from './data-room-entry.entity';
import { nameKeyOf } from './entry-name';

/** An entry with the size and type of its file (files only). */
export interface EntryWithFile {
  entry: DataRoomEntry;
  file: Pick<StoredFile, 'size' | 'contentType'> | null;
}

/** The entries of organizations' data rooms (not deleted ones, unless a method says so). */
@Injectable()
export class DataRoomEntryRepository extends AggregateRepository<DataRoomEntry> {
  constructor(@InjectRepository(DataRoomEntry) entries: Repository<DataRoomEntry>) {
    super(entries);
  }

  /**
   * Serialises the changes of one organization's data room until the transaction ends. Moves
   * (a folder into its own subtree), recursive deletes (a file added under a folder being
   * deleted) and name checks all decide on several rows at once; one lock per data room keeps
   * each decision true until it is committed.
   */
  async lockDataRoom(organizationId: string, tx: InTransaction): Promise<void> {
    await tx.manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
      `data-room:${organizationId}`,
    ]);
  }

  findLive(organizationId: string, id: string, tx?: InTransaction) {
    return this.repo(tx).findOneBy({ id, organizationId, deletedAt: IsNull() });
  }

  /** Whether the organization's data room has any live entry. */
  hasAny(organizationId: string, tx: InTransaction): Promise<boolean> {
    return this.repo(tx).exists({ where: { organizationId, deletedAt: IsNull() } });
  }

  /** Entries, folders first, then by name; all of them, or those directly in `parentKey`. */
  async list(organizationId: string, parentKey?: string): Promise<EntryWithFile[]> {
    const query = this.repository
      .createQueryBuilder('d')
      .leftJoinAndMapOne('d.storedFile', StoredFile, 'f', 'f.id = d.file_id')
      .where('d.organization_id = :organizationId AND d.deleted_at IS NULL', { organizationId });
    if (parentKey) query.andWhere('d.parent_key = :parentKey', { parentKey });
    const rows = await query
      .orderBy(`CASE WHEN d.type = 'folder' THEN 0 ELSE 1 END`)
      .addOrderBy('d.name_key')
      .addOrderBy('d.id')
      .getMany();
    return rows.map((entry) => ({
      entry,
      file: (entry as unknown as { storedFile?: StoredFile }).storedFile ?? null,
    }));
  }

  /** The names among `nameKeys` already taken in the folder (`except` an entry being renamed). */
  async takenNames(
    organizationId: string,
    parentKey: string,
    nameKeys: string[],
    tx: InTransaction,
    except?: string,
  ): Promise<string[]> {
    const rows = await this.repo(tx).find({
      select: { name: true },
      where: {
        organizationId,
        parentKey,
        nameKey: In(nameKeys),
        deletedAt: IsNull(),
        ...(except ? { id: Not(except) } : {}),
      },
    });
    return rows.map((r) => r.name);
  }

  /** The live entry named so (whatever its case) in the folder. */
  findNamed(organizationId: string, parentKey: string, name: string, tx: InTransaction) {
    return this.repo(tx).findOneBy({
      organizationId,
      parentKey,
      nameKey: nameKeyOf(name),
      deletedAt: IsNull(),
    });
  }

  async hasEntries(folderId: string, tx: InTransaction): Promise<boolean> {
    return this.repo(tx).exists({ where: { parentFolderId: folderId, deletedAt: IsNull() } });
  }

  /** Whether `folderId` is `candidate` or lies inside it. */
  async isWithin(folderId: string, candidate: string, tx: InTransaction): Promise<boolean> {
    const rows = (await tx.manager.query(
      `WITH RECURSIVE up AS (
         SELECT id, parent_folder_id FROM document WHERE id = $1
         UNION
         SELECT d.id, d.parent_folder_id FROM document d JOIN up ON d.id = up.parent_folder_id
       )
       SELECT EXISTS (SELECT 1 FROM up WHERE id = $2) AS within`,
      [folderId, candidate],
    )) as { within: boolean }[];
    return rows[0].within;
  }

  /**
   * Marks the entry and everything under it deleted; returns how many entries and the files
   * they held.
   */
  async deleteSubtree(
    id: string,
    tx: InTransaction,
  ): Promise<{ entries: number; fileIds: string[] }> {
    const [rows] = (await tx.manager.query(
      `WITH RECURSIVE subtree AS (
         SELECT id FROM document WHERE id = $1
         UNION
         SELECT d.id FROM document d JOIN subtree s ON d.parent_folder_id = s.id
         WHERE d.deleted_at IS NULL
       )
       UPDATE document SET deleted_at = now(), updated = now()
       WHERE id IN (SELECT id FROM subtree) AND deleted_at IS NULL
       RETURNING id, file_id`,
      [id],
    )) as [{ id: string; file_id: string | null }[], number];
    return {
      entries: rows.length,
      fileIds: rows.map((r) => r.file_id).filter((f): f is string => f !== null),
    };
  }

  async insertMany(entries: DataRoomEntry[], tx: InTransaction): Promise<void> {
    await this.repo(tx).insert(entries);
  }
}
