import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Scheduler } from './scheduler.service';

/** The scheduler, once for the app: it finds the jobs of every module's providers itself. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [Scheduler],
  exports: [Scheduler],
})
export class SchedulerModule {}
