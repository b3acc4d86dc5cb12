import { ledgerRouteControllers } from './ledger/ledger-routes';
import { Module } from '@nestjs/common';
import { CapTableCoreModule } from './cap-table-core.module';
import { CapTableRecords } from './cap-table-records';
import { HoldingsModule } from './holdings/holdings.module';
import { ModelingModule } from './modeling/modeling.module';
import { OptionsModule } from './options/options.module';
import { PlansModule } from './plans/plans.module';
import { VestingSchedulesModule } from './vesting-schedules/vesting-schedules.module';
import { CapitalChangesController } from './capital-changes/capital-changes.controller';
import { CapitalChangesService } from './capital-changes/capital-changes.service';
import { DashboardController } from './dashboard/dashboard.controller';
import { DashboardService } from './dashboard/dashboard.service';
import { LegendsController } from './legends/legends.controller';
import { QueryController } from './query/query.controller';
import { QueryService } from './query/query.service';
import { SecuritiesController } from './securities/securities.controller';
import { SecuritiesService } from './securities/securities.service';
import { ShareholdingReadsService } from './shareholdings/shareholding-reads.service';
import {
  OrganizationShareholdingsController,
  ShareholdingController,
} from './shareholdings/shareholdings.controller';
import { ShareholdingsService } from './shareholdings/shareholdings.service';
import { TransactionsController } from './transactions/transactions.controller';
import { TransactionsService } from './transactions/transactions.service';
import { ValuationsController } from './valuations/valuations.controller';

/**
 * The cap table: share classes, legends, shareholdings and transfers, valuations, capital
 * changes, the dashboard and blocks, the multi-read query, and (in their own modules) vesting
 * schedules, plans and pools, holdings and options. Every change is a transaction of the
 * append-only log (LedgerModule), applied by one reducer under locks.
 */
@Module({
  imports: [
    CapTableCoreModule,
    VestingSchedulesModule,
    PlansModule,
    HoldingsModule,
    OptionsModule,
    ModelingModule,
  ],
  controllers: [
    SecuritiesController,
    LegendsController,
    OrganizationShareholdingsController,
    ShareholdingController,
    ValuationsController,
    CapitalChangesController,
    DashboardController,
    QueryController,
    TransactionsController,
    ...ledgerRouteControllers(),
  ],
  providers: [
    CapTableRecords,
    SecuritiesService,
    ShareholdingsService,
    ShareholdingReadsService,
    CapitalChangesService,
    DashboardService,
    QueryService,
    TransactionsService,
  ],
})
export class CapTableModule {}
