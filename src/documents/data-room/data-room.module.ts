import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { DocumentsCoreModule } from '../documents-core.module';
import { DataRoomAvailability } from './data-room-availability.middleware';
import { DataRoomEntryRepository } from './data-room-entry.repository';
import { DataRoomReadsService } from './data-room-reads.service';
import { DataRoomController } from './data-room.controller';
import { DataRoomService } from './data-room.service';

/** The data room: folders and documents of an organization (disabled in production). */
@Module({
  imports: [DocumentsCoreModule],
  controllers: [DataRoomController],
  providers: [DataRoomEntryRepository, DataRoomService, DataRoomReadsService],
  // The cloud-drive sync writes its files through the data room's own rules and events.
  exports: [DataRoomService],
})
export class DataRoomModule implements NestModule {
  // A middleware, so that in production nothing else (no guard, no upload) runs.
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(DataRoomAvailability).forRoutes(DataRoomController);
  }
}
