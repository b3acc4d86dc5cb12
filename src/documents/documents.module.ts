import { Module } from '@nestjs/common';
import { CertificatesModule } from './certificates/certificates.module';
import { CsvModule } from './csv/csv.module';
import { DataRoomModule } from './data-room/data-room.module';
import { DocumentsCoreModule } from './documents-core.module';
import { DriveModule } from './drive/drive.module';
import { FilesModule } from './files/files.module';

/**
 * Documents and files: the storage drivers, the data room, organization and profile files,
 * certificates as PDF, the cap table as CSV (export and import), and the cloud-drive sync.
 */
@Module({
  imports: [
    DocumentsCoreModule,
    DataRoomModule,
    FilesModule,
    CertificatesModule,
    CsvModule,
    DriveModule,
  ],
})
export class DocumentsModule {}
