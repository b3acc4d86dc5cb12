import { Module } from '@nestjs/common';
import { CertificatesModule } from './certificates/certificates.module';
import { CsvModule } from './csv/csv.module';
import { DataRoomModule } from './data-room/data-room.module';
import { DocumentsCoreModule } from './documents-core.module';
import { FilesModule } from './files/files.module';

/**
 * Documents and files: the storage drivers, the data room, organization and profile files,
 * certificates as PDF, and the cap table as CSV (export and import).
 */
@Module({
  imports: [DocumentsCoreModule, DataRoomModule, FilesModule, CertificatesModule, CsvModule],
})
export class DocumentsModule {}
