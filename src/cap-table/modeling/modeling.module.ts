import { Module } from '@nestjs/common';
import { CapTableCoreModule } from '../cap-table-core.module';

/** Pro-forma round modeling and the exit waterfall: read the cap table, store nothing. */
@Module({
  imports: [CapTableCoreModule],
  controllers: [],
  providers: [],
})
export class ModelingModule {}
