import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations';
import { DataRoomEntry } from './data-room/data-room-entry.entity';
import { DocumentRecords } from './document-records';
import { FileStore } from './files/file-store.service';
import { StoredFile } from './files/stored-file.entity';
import { StoredFileRepository } from './files/stored-file.repository';
import { SuiteItem } from './suite/suite-item.entity';
import { storageProvider } from './storage/storage.provider';

/** What every part of documents works with: storage, the file store and the tables. */
@Module({
  imports: [TypeOrmModule.forFeature([StoredFile, DataRoomEntry, SuiteItem]), OrganizationsModule],
  providers: [storageProvider, FileStore, StoredFileRepository, DocumentRecords],
  exports: [TypeOrmModule, OrganizationsModule, storageProvider, FileStore, StoredFileRepository],
})
export class DocumentsCoreModule {}
