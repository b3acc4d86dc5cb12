import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { multipartMiddleware } from '../../common';
import { Env } from '../../config';
import { ProfilesModule } from '../../profiles';
import { DocumentsCoreModule } from '../documents-core.module';
import { FileContentController, OrganizationFilesController } from './files.controller';
import { FilesService } from './files.service';
import { IncentiveDocumentsController } from './incentive-documents.controller';
import { ProfileFilesController } from './profile-files.controller';

/** Files outside the data room: organization files, profile files, incentive documents. */
@Module({
  imports: [DocumentsCoreModule, ProfilesModule],
  controllers: [
    OrganizationFilesController,
    FileContentController,
    ProfileFilesController,
    IncentiveDocumentsController,
  ],
  providers: [FilesService],
})
export class FilesModule implements NestModule {
  constructor(private readonly env: Env) {}

  configure(consumer: MiddlewareConsumer) {
    consumer
      .apply(multipartMiddleware(this.env.STORAGE_UPLOAD_SIZE_LIMIT_MB * 1024 * 1024, 1))
      .forRoutes(
        { path: 'v1/organization/:organization/file', method: RequestMethod.POST },
        { path: 'v1/profile/:profile/file', method: RequestMethod.POST },
      );
  }
}
