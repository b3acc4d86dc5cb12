import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivityAction } from './activity-action.entity';
import { ActivityConsumer } from './activity.consumer';

@Module({
  imports: [TypeOrmModule.forFeature([ActivityAction])],
  providers: [ActivityConsumer],
})
export class ActivityModule {}
