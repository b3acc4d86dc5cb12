import { Module } from '@nestjs/common';
import { CapTableCoreModule } from '../cap-table-core.module';
import {
  MemberOptionsController,
  OptionController,
  OrganizationOptionsController,
} from './options.controller';
import { OptionExerciseService } from './option-exercise.service';
import { OptionReadsService } from './option-reads.service';
import { PlanPoolOptionsController } from './plan-pool-options.controller';

/** Option views and exercise: requests by holders, exercise by editors. */
@Module({
  imports: [CapTableCoreModule],
  controllers: [
    PlanPoolOptionsController,
    OptionController,
    OrganizationOptionsController,
    MemberOptionsController,
  ],
  providers: [OptionReadsService, OptionExerciseService],
})
export class OptionsModule {}
