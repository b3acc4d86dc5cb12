import { Module } from '@nestjs/common';
import { CapTableCoreModule } from '../cap-table-core.module';
import { PlanReadsService } from './plan-reads.service';
import {
  OrganizationPlansController,
  OrganizationPoolsController,
  PlanController,
} from './plans.controller';
import { PlansService } from './plans.service';

/** Stock plans and their pools, the plan dashboard and the organization's pools. */
@Module({
  imports: [CapTableCoreModule],
  controllers: [OrganizationPlansController, PlanController, OrganizationPoolsController],
  providers: [PlansService, PlanReadsService],
})
export class PlansModule {}
