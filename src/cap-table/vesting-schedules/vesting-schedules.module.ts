import { Module } from '@nestjs/common';
import { CapTableCoreModule } from '../cap-table-core.module';
import { VestingProjectionService } from './vesting-projection.service';
import { VestingSchedulesController } from './vesting-schedules.controller';
import { VestingSchedulesService } from './vesting-schedules.service';

/** Vesting schedules (OCF VestingTerms), versioned, and the projection of a vesting. */
@Module({
  imports: [CapTableCoreModule],
  controllers: [VestingSchedulesController],
  providers: [VestingSchedulesService, VestingProjectionService],
})
export class VestingSchedulesModule {}
