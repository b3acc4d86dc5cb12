import { Injectable } from '@nestjs/common';
import { AccessContext, DomainError } from '../../../common';
import { Env, isProduction } from '../../../config';
import { MINUTE, Scheduled } from '../../../scheduler';
import { DriveAccess } from '../drive-access';
import { DriveSyncConfigurationRepository } from '../store/drive-sync-configuration.repository';
import type { DriveSyncRun } from '../store/drive-sync-run.entity';
import { DriveSyncQueue } from './drive-sync-queue';
import { DriveSyncRecords } from './drive-sync-records';
import { DriveSyncDto } from './drive-sync.dto';
import { DriveSyncResultView, DriveSyncResultsView } from './drive-sync.view';

/** How long `POST sync` waits for its runs to end before answering them `running`. */
export const SYNC_WAIT_MS = 50_000;
const POLL_MS = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The schedule's period: DRIVE_SYNC_INTERVAL_MINUTES, off at 0 and in production. */
const syncEvery = (env: Env) => (isProduction(env) ? 0 : env.DRIVE_SYNC_INTERVAL_MINUTES * MINUTE);

/**
 * Sync runs asked for by a member (`POST .../google-drive/sync`, answered once they end) or by
 * the schedule (every enabled configuration of every active connection, only queued).
 */
@Injectable()
export class DriveSyncs {
  /** How long `sync` waits for its runs (SYNC_WAIT_MS; a test shortens it rather than wait 50 s). */
  waitMs = SYNC_WAIT_MS;

  constructor(
    private readonly records: DriveSyncRecords,
    private readonly configurations: DriveSyncConfigurationRepository,
    private readonly queue: DriveSyncQueue,
    private readonly drive: DriveAccess,
    private readonly env: Env,
  ) {}

  /**
   * Runs the named configuration (even disabled), or every enabled one, as the caller; answers
   * each run's outcome from its history entry once all ended, or after SYNC_WAIT_MS.
   */
  async sync(access: AccessContext, dto: DriveSyncDto): Promise<DriveSyncResultsView> {
    const organizationId = access.organizationId!;
    if (dto.organization !== organizationId) {
      throw DomainError.badRequest('organization must be the organization of the path');
    }
    const configurations = dto.configurationId
      ? [await this.configurations.find(organizationId, dto.configurationId)]
      : await this.configurations.enabled(organizationId);
    if (configurations.some((c) => !c)) throw DomainError.notFound('no such sync configuration');
    await this.drive.connected(organizationId);
    const runs: { configurationId: string; runId: string }[] = [];
    for (const c of configurations) {
      const runId = await this.queue.enqueue(organizationId, c!.id, access.userId);
      runs.push({ configurationId: c!.id, runId });
    }
    return { results: await this.outcomes(runs) };
  }

  /** The scheduled runs: queued only; each acts as its configuration's creator. */
  @Scheduled({ name: 'documents:drive-sync', every: syncEvery })
  async scheduled(): Promise<number> {
    if (!syncEvery(this.env)) return 0;
    return this.queueAll();
  }

  /** Queues a run of every enabled configuration of every active connection. */
  async queueAll(): Promise<number> {
    const configurations = await this.records.scheduledConfigurations();
    for (const c of configurations) await this.queue.enqueue(c.organizationId, c.id, null);
    return configurations.length;
  }

  /** Polls the runs' history entries (not Bull's jobs: they are removed once done). */
  private async outcomes(
    runs: { configurationId: string; runId: string }[],
  ): Promise<DriveSyncResultView[]> {
    // Real time, not the clock's: a test's clock may stand still while the runs go on.
    const deadline = performance.now() + this.waitMs;
    const dropped = new Set<string>();
    for (;;) {
      const rows = new Map(
        (await this.records.runs(runs.map((r) => r.runId))).map((r) => [r.id, r]),
      );
      const open = [];
      for (const r of runs) {
        const row = rows.get(r.runId);
        if (row ? row.status === 'running' : !dropped.has(r.runId)) open.push(r);
      }
      for (const r of open) {
        // No entry and no job: the run never started (its configuration was deleted meanwhile).
        if (!rows.has(r.runId) && !(await this.queue.pending(r.configurationId, r.runId))) {
          if (!(await this.records.runs([r.runId])).length) dropped.add(r.runId);
        }
      }
      const stillOpen = open.filter((r) => !dropped.has(r.runId));
      if (!stillOpen.length || performance.now() >= deadline) {
        return runs.map((r) =>
          resultOf(r.configurationId, rows.get(r.runId), dropped.has(r.runId)),
        );
      }
      await sleep(POLL_MS);
    }
  }
}

function resultOf(
  configurationId: string,
  row: DriveSyncRun | undefined,
  dropped: boolean,
): DriveSyncResultView {
  return {
    configurationId,
    status: row?.status ?? (dropped ? 'failed' : 'running'),
    filesProcessed: row?.filesProcessed ?? 0,
    filesAdded: row?.filesAdded ?? 0,
    filesUpdated: row?.filesUpdated ?? 0,
    filesSkipped: row?.filesSkipped ?? 0,
    filesFailed: row?.filesFailed ?? 0,
  };
}
