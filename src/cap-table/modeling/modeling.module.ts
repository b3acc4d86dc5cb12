import { Module } from '@nestjs/common';
import { CapTableCoreModule } from '../cap-table-core.module';
import { ModelingController } from './modeling.controller';
import { ModelPositionService } from './model-position.service';
import { RoundModelService } from './round-model.service';
import { WaterfallService } from './waterfall.service';

/** Pro-forma round modeling and the exit waterfall: read the cap table, store nothing. */
@Module({
  imports: [CapTableCoreModule],
  controllers: [ModelingController],
  providers: [ModelPositionService, RoundModelService, WaterfallService],
})
export class ModelingModule {}
