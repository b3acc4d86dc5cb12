import { Module } from '@nestjs/common';
import { LedgerModule } from '../../cap-table';
import { OrganizationsModule } from '../../organizations';
import { OcfExportController } from './ocf-export.controller';
import { OcfExportService } from './ocf-export.service';

/** `GET /v1/organization/:organization/ocf`: the cap table as an OCF package (zip). */
@Module({
  imports: [LedgerModule, OrganizationsModule],
  controllers: [OcfExportController],
  providers: [OcfExportService],
})
export class OcfExportModule {}
