import { randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { Clock } from '../../../common';
import { DRIVE_SYNC, DriveSyncJob, QueueName } from '../../../events';
import { DriveSyncRecords } from './drive-sync-records';

/** Tries to queue a run before giving up on a job that keeps ending as it is looked at. */
const QUEUE_ATTEMPTS = 20;
const RETRY_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Queues sync runs: one job per configuration at a time (its job id), so a trigger while a run
 * is queued or running joins that run. Answers the id of the run (its history entry) that will
 * do the work, the caller's own or the one it joined.
 */
@Injectable()
export class DriveSyncQueue {
  constructor(
    @InjectQueue(QueueName.DriveSync) private readonly queue: Queue<DriveSyncJob>,
    private readonly records: DriveSyncRecords,
    private readonly clock: Clock,
  ) {}

  async enqueue(
    organizationId: string,
    configurationId: string,
    triggeredByUserId: string | null,
  ): Promise<string> {
    const job: DriveSyncJob = {
      runId: randomUUID(),
      organizationId,
      configurationId,
      triggeredByUserId,
      triggeredAt: this.clock.nowMs(),
    };
    const jobId = DRIVE_SYNC.jobId(configurationId);
    for (let attempt = 0; attempt < QUEUE_ATTEMPTS; attempt++) {
      // Bull keeps the job already under this id, if any, and ignores this one.
      await this.queue.add(DRIVE_SYNC.name, job, { ...DRIVE_SYNC.options, jobId });
      const queued = await this.queue.getJob(jobId);
      if (queued?.data.runId === job.runId) return job.runId;
      if (queued) {
        // Another trigger's run: joined unless it has ended (its job is about to be removed,
        // and a trigger after a run must run again).
        const [run] = await this.records.runs([queued.data.runId]);
        if (!run || run.status === 'running') return queued.data.runId;
      } else if ((await this.records.runs([job.runId])).length) {
        return job.runId; // ours, already done
      }
      await sleep(RETRY_MS);
    }
    return job.runId;
  }

  /** Whether the run's job is still queued or running (else a run without an entry never ran). */
  async pending(configurationId: string, runId: string): Promise<boolean> {
    const queued = await this.queue.getJob(DRIVE_SYNC.jobId(configurationId));
    return queued?.data.runId === runId;
  }
}
