import { Module } from '@nestjs/common';
import { LedgerModule } from '../../cap-table';
import { OcfExportController } from './ocf-export.controller';
import { OcfExportReader } from './ocf-export.reader';
import { OcfExportService } from './ocf-export.service';

/** `GET /v1/organization/:organization/ocf`: the cap table as an OCF package (zip). */
@Module({
  imports: [LedgerModule],
  controllers: [OcfExportController],
  providers: [OcfExportService, OcfExportReader],
})
export class OcfExportModule {}
