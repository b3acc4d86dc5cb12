import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { CapTableExportsModule } from '../../cap-table';
import { multipartMiddleware } from '../../common';
import { Env } from '../../config';
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
export class CsvModule implements NestModule {
  constructor(private readonly env: Env) {}

  /** The import file is parsed before the guards, one file of at most STORAGE_UPLOAD_SIZE_LIMIT_MB. */
  configure(consumer: MiddlewareConsumer) {
    consumer
      .apply(multipartMiddleware(this.env.STORAGE_UPLOAD_SIZE_LIMIT_MB * 1024 * 1024, 1))
      .forRoutes({ path: 'v1/organization/:organization/import', method: RequestMethod.POST });
  }
}
