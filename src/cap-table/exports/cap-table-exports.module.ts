import { Module } from '@nestjs/common';
import { CapTableCoreModule } from '../cap-table-core.module';
import { CapTableCsv } from './cap-table-csv.service';
import { CapTableImport } from './cap-table-import.service';
import { CapTableRowsReader } from './cap-table-rows';
import { CertificateFacts } from './certificate-facts.service';
import { IncentiveFacts } from './incentive-facts.service';
import { ImportLock } from './import-lock';

/**
 * What other modules may read of the cap table, and the one way they may write it (an import),
 * with the lock that lets one import at a time into an organization (CSV and OCF alike).
 */
@Module({
  imports: [CapTableCoreModule],
  providers: [
    CertificateFacts,
    IncentiveFacts,
    CapTableCsv,
    CapTableRowsReader,
    CapTableImport,
    ImportLock,
  ],
  exports: [CertificateFacts, IncentiveFacts, CapTableCsv, ImportLock],
})
export class CapTableExportsModule {}
