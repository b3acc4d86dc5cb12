import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations';
import { StakeholderCounts } from './billing-counts';
import { LedgerModule } from './ledger/ledger.module';
import { LedgerWriter } from './ledger/ledger-writer';
import { LegendsService } from './legends/legends.service';
import { PositionModule } from './position/position.module';
import { ShareholdingRepository } from './shareholdings/shareholding.repository';
import { ValuationsService } from './valuations/valuations.service';

/**
 * What every part of the cap table writes and reads with: the ledger (log, reducer, writer), the
 * position as of a date, legends (default legends of new certificates), valuations (the latest
 * price) and the billing counts. The feature modules of the cap table import it.
 */
@Module({
  imports: [LedgerModule, PositionModule, OrganizationsModule],
  providers: [
    LedgerWriter,
    LegendsService,
    ValuationsService,
    ShareholdingRepository,
    StakeholderCounts,
  ],
  exports: [
    LedgerModule,
    PositionModule,
    OrganizationsModule,
    LedgerWriter,
    LegendsService,
    ValuationsService,
    ShareholdingRepository,
    StakeholderCounts,
  ],
})
export class CapTableCoreModule {}
