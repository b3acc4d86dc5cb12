import { Module } from '@nestjs/common';
import { CapTableExportsModule } from '../../cap-table';
import { DocumentsCoreModule } from '../documents-core.module';
import { CapTableCsvController } from './cap-table-csv.controller';
import { CsvExportService } from './csv-export.service';
import { CsvImportService } from './csv-import.service';
import { SiteCapTableController } from './site-cap-table.controller';

/** The cap table as CSV: export (also of every organization), import and its template. */
@Module({
  imports: [DocumentsCoreModule, CapTableExportsModule],
  controllers: [CapTableCsvController, SiteCapTableController],
  providers: [CsvExportService, CsvImportService],
})
export class CsvModule {}
