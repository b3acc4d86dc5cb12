import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { PositionReader } from './position-reader';

/** The cap table as of a date, read (no HTTP, no writes). */
@Module({
  imports: [LedgerModule],
  providers: [PositionReader],
  exports: [PositionReader],
})
export class PositionModule {}
