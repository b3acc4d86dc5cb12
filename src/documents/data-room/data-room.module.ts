import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { multipartMiddleware } from '../../common';
import { Env } from '../../config';
import { DocumentsCoreModule } from '../documents-core.module';
import { DataRoomAvailability } from './data-room-availability.middleware';
import { DataRoomEntryRepository } from './data-room-entry.repository';
import { DataRoomReadsService } from './data-room-reads.service';
import { DataRoomController } from './data-room.controller';
import { DataRoomService } from './data-room.service';

/** Files one data room upload may carry (each up to DATA_ROOM_UPLOAD_SIZE_LIMIT_MB, in memory). */
const MAX_FILES_PER_UPLOAD = 10;

/** The data room: folders and documents of an organization (disabled in production). */
@Module({
  imports: [DocumentsCoreModule],
  controllers: [DataRoomController],
  providers: [DataRoomEntryRepository, DataRoomService, DataRoomReadsService],
})
export class DataRoomModule implements NestModule {
  constructor(private readonly env: Env) {}

  configure(consumer: MiddlewareConsumer) {
    // First, so that in production nothing else (not even the upload's parsing) runs.
    consumer.apply(DataRoomAvailability).forRoutes(DataRoomController);
    consumer
      .apply(
        multipartMiddleware(
          this.env.DATA_ROOM_UPLOAD_SIZE_LIMIT_MB * 1024 * 1024,
          MAX_FILES_PER_UPLOAD,
        ),
      )
      .forRoutes({ path: 'v1/organization/:organization/document', method: RequestMethod.POST });
  }
}
