import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { DRIVE_SYNC, DriveSyncJob, QueueName } from '../../../events';
import { DriveSyncRunner } from './drive-sync-runner';

/** Runs the queued sync runs (one at a time in each instance). */
@Processor(QueueName.DriveSync)
export class DriveSyncConsumer {
  private readonly logger = new Logger('DriveSync');

  constructor(private readonly runner: DriveSyncRunner) {}

  @Process(DRIVE_SYNC.name)
  async handle(job: Job<DriveSyncJob>): Promise<void> {
    await this.runner.run(job.data);
  }

  @OnQueueFailed()
  onFailed(job: Job, err: Error) {
    this.logger.warn(`sync job ${job.id} failed: ${err.message}`);
  }
}
