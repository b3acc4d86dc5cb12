import { Module } from '@nestjs/common';
import { CapTableExportsModule } from '../../cap-table';
import { ProfilesModule } from '../../profiles';
import { DocumentsCoreModule } from '../documents-core.module';
import { FileContentController, OrganizationFilesController } from './files.controller';
import { FilesService } from './files.service';
import { IncentiveDocumentsController } from './incentive-documents.controller';
import { ProfileFilesController } from './profile-files.controller';

/** Files outside the data room: organization files, profile files, incentive documents. */
@Module({
  imports: [DocumentsCoreModule, ProfilesModule, CapTableExportsModule],
  controllers: [
    OrganizationFilesController,
    FileContentController,
    ProfileFilesController,
    IncentiveDocumentsController,
  ],
  providers: [FilesService],
})
export class FilesModule {}
