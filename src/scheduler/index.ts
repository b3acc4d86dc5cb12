// The one scheduler: periodic jobs (`@Scheduled`) and retention (`@Retention`), each run once
// per period across instances on the clock's time.
export { DAY, HOUR, MINUTE, Retention, Scheduled } from './schedule.decorators';
export type { Period, RetentionOptions, ScheduledOptions } from './schedule.decorators';
export { repeatEvery } from './repeat';
export { Scheduler } from './scheduler.service';
export { SchedulerModule } from './scheduler.module';
