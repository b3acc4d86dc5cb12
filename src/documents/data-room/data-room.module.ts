import { Module } from '@nestjs/common';
import { DocumentPresence } from '../document-presence';
import { DocumentStores } from '../document-stores.service';
import { DocumentsCoreModule } from '../documents-core.module';
import { GraphDrive } from '../suite/graph-drive';
import { SuiteItemRepository } from '../suite/suite-item.repository';
import { SuiteStore } from '../suite/suite-store.service';
import { DataRoomEntryRepository } from './data-room-entry.repository';
import { DataRoomReadsService } from './data-room-reads.service';
import { DataRoomController } from './data-room.controller';
import { DataRoomService } from './data-room.service';

/**
 * An organization's documents and folders, in its store: the data room (disabled in production)
 * or the productivity-suite store (SharePoint/OneDrive through Graph, when configured). The guard
 * decides by the store which routes exist; `DocumentStores` dispatches to it.
 */
@Module({
  imports: [DocumentsCoreModule],
  controllers: [DataRoomController],
  providers: [
    DataRoomEntryRepository,
    DataRoomService,
    DataRoomReadsService,
    GraphDrive,
    SuiteItemRepository,
    SuiteStore,
    DocumentStores,
    DocumentPresence,
  ],
  // The cloud-drive sync writes its files through the store's own rules and events.
  exports: [DataRoomService, SuiteStore],
})
export class DataRoomModule {}
