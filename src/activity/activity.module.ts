import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivityAction } from './activity-action.entity';
import { ActivityConsumer } from './activity.consumer';
import { ActivityController } from './activity.controller';
import { ActivityService } from './activity.service';

@Module({
  imports: [TypeOrmModule.forFeature([ActivityAction])],
  controllers: [ActivityController],
  providers: [ActivityConsumer, ActivityService],
})
export class ActivityModule {}
