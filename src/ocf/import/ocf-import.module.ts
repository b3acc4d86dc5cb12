import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { CapTableCoreModule, CapTableExportsModule } from '../../cap-table';
import { multipartMiddleware } from '../../common';
import { Env } from '../../config';
import { OcfImportController } from './ocf-import.controller';
import { OcfImportService } from './ocf-import.service';

/** `POST /v1/organization/:organization/ocf`: an OCF package replayed into an empty cap table. */
@Module({
  imports: [CapTableCoreModule, CapTableExportsModule],
  controllers: [OcfImportController],
  providers: [OcfImportService],
})
export class OcfImportModule implements NestModule {
  constructor(private readonly env: Env) {}

  /** The package is parsed before the guards, one file of at most STORAGE_UPLOAD_SIZE_LIMIT_MB. */
  configure(consumer: MiddlewareConsumer) {
    consumer
      .apply(multipartMiddleware(this.env.STORAGE_UPLOAD_SIZE_LIMIT_MB * 1024 * 1024, 1))
      .forRoutes({ path: 'v1/organization/:organization/ocf', method: RequestMethod.POST });
  }
}
