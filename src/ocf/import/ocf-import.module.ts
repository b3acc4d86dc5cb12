import { Module } from '@nestjs/common';
import { CapTableCoreModule } from '../../cap-table';
import { OcfImportController } from './ocf-import.controller';
import { OcfImportService } from './ocf-import.service';

/** `POST /v1/organization/:organization/ocf`: an OCF package replayed into an empty cap table. */
@Module({
  imports: [CapTableCoreModule],
  controllers: [OcfImportController],
  providers: [OcfImportService],
})
export class OcfImportModule {}
