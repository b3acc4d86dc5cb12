import { Module } from '@nestjs/common';
import { CapTableCoreModule, CapTableExportsModule } from '../../cap-table';
import { OcfImportController } from './ocf-import.controller';
import { OcfImportService } from './ocf-import.service';

/** `POST /v1/organization/:organization/ocf`: an OCF package replayed into an empty cap table. */
@Module({
  imports: [CapTableCoreModule, CapTableExportsModule],
  controllers: [OcfImportController],
  providers: [OcfImportService],
  exports: [OcfImportService],
})
export class OcfImportModule {}
