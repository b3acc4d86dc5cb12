import { Module } from '@nestjs/common';
import { ProfilesModule } from '../../profiles';
import { CapTableCoreModule } from '../cap-table-core.module';
import { EntityProfileController } from './entity-profile.controller';
import { HoldingReadsService } from './holding-reads.service';
import { HoldingRepository } from './holding.repository';
import { HoldingSettlementsService } from './holding-settlements.service';
import { HoldingsController, OrganizationHoldingsController } from './holdings.controller';
import { HoldingsService } from './holdings.service';

/** Holdings: option grants, RSUs, SARs, warrants, convertible notes and SAFEs; repayment, conversion and an entity's portfolio. */
@Module({
  imports: [CapTableCoreModule, ProfilesModule],
  controllers: [HoldingsController, OrganizationHoldingsController, EntityProfileController],
  providers: [HoldingRepository, HoldingReadsService, HoldingsService, HoldingSettlementsService],
})
export class HoldingsModule {}
