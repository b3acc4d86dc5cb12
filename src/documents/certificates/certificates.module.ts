import { Module } from '@nestjs/common';
import { CapTableExportsModule } from '../../cap-table';
import { DocumentsCoreModule } from '../documents-core.module';
import { LegendCertificateController, ShareCertificateController } from './certificates.controller';
import { CertificatesService } from './certificates.service';

/** Share and legend certificates as PDF, drawn on request from the cap table. */
@Module({
  imports: [DocumentsCoreModule, CapTableExportsModule],
  controllers: [ShareCertificateController, LegendCertificateController],
  providers: [CertificatesService],
})
export class CertificatesModule {}
