import { Module } from '@nestjs/common';
import { CapTableCoreModule } from '../cap-table-core.module';
import { CapTableCsv } from './cap-table-csv.service';
import { CapTableImport } from './cap-table-import.service';
import { CapTableRowsReader } from './cap-table-rows';
import { CertificateFacts } from './certificate-facts.service';
import { IncentiveFacts } from './incentive-facts.service';

/** What other modules may read of the cap table, and the one way they may write it (an import). */
@Module({
  imports: [CapTableCoreModule],
  providers: [CertificateFacts, IncentiveFacts, CapTableCsv, CapTableRowsReader, CapTableImport],
  exports: [CertificateFacts, IncentiveFacts, CapTableCsv],
})
export class CapTableExportsModule {}
