import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Tx } from '../events';
import { OrganizationDocuments, OrganizationDocumentsRegistry } from '../organizations';
import { DataRoomEntryRepository } from './data-room/data-room-entry.repository';
import { SuiteItemRepository } from './suite/suite-item.repository';

/**
 * Tells organizations whether an organization has documents (its document store may change only
 * while it has none): a live data room entry, or an entry of the suite store's index.
 */
@Injectable()
export class DocumentPresence implements OrganizationDocuments, OnModuleInit {
  constructor(
    private readonly registry: OrganizationDocumentsRegistry,
    private readonly dataRoom: DataRoomEntryRepository,
    private readonly suite: SuiteItemRepository,
  ) {}

  onModuleInit() {
    this.registry.register(this);
  }

  async hasDocuments(organizationId: string, tx: Tx): Promise<boolean> {
    return (
      (await this.dataRoom.hasAny(organizationId, tx)) ||
      (await this.suite.hasItems(organizationId, tx))
    );
  }
}
