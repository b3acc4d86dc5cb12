import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../../database';
import { SuiteItem } from './suite-item.entity';

/** The suite store's index: our ids of an organization's drive items, and its own folder's. */
@Injectable()
export class SuiteItemRepository extends AggregateRepository<SuiteItem> {
  constructor(@InjectRepository(SuiteItem) items: Repository<SuiteItem>) {
    super(items);
  }

  /** The drive item id of the organization's own folder, once it was made. */
  async rootOf(organizationId: string): Promise<string | null> {
    const row = await this.repository.findOneBy({ organizationId, root: true });
    return row?.itemId ?? null;
  }

  /** Records the organization's folder; the first of two concurrent callers wins. */
  async setRoot(organizationId: string, itemId: string): Promise<string> {
    await this.repository
      .createQueryBuilder()
      .insert()
      .values({ id: randomUUID(), organizationId, itemId, root: true })
      .orIgnore()
      .execute();
    return (await this.rootOf(organizationId))!;
  }

  /** An addressable item (not the organization's folder) of the organization, by our id. */
  find(organizationId: string, id: string): Promise<SuiteItem | null> {
    return this.repository.findOneBy({ id, organizationId, root: false });
  }

  /**
   * Our ids of the organization's drive items, indexing those seen for the first time (added by
   * us in this call, or in the drive by someone else).
   */
  async idsOf(
    organizationId: string,
    itemIds: string[],
    tx?: InTransaction,
  ): Promise<Map<string, string>> {
    if (!itemIds.length) return new Map();
    const repo = this.repo(tx);
    await repo
      .createQueryBuilder()
      .insert()
      .values(itemIds.map((itemId) => ({ id: randomUUID(), organizationId, itemId, root: false })))
      .orIgnore()
      .execute();
    const rows = await repo.findBy({ organizationId, itemId: In(itemIds) });
    return new Map(rows.map((r) => [r.itemId, r.id]));
  }

  /** Forgets deleted items. */
  async forget(organizationId: string, itemIds: string[], tx: InTransaction): Promise<void> {
    if (itemIds.length) await this.repo(tx).delete({ organizationId, itemId: In(itemIds) });
  }

  /** Whether the organization has any indexed document or folder. */
  hasItems(organizationId: string, tx?: InTransaction): Promise<boolean> {
    return this.repo(tx).exists({ where: { organizationId, root: false } });
  }
}
