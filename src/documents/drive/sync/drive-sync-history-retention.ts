import { Injectable } from '@nestjs/common';
import { DAY, Retention } from '../../../scheduler';

/** History entries kept per configuration (what `GET sync-history` shows at most). */
export const HISTORY_KEPT = 50;

/**
 * Once a day each configuration keeps its newest HISTORY_KEPT history entries; the older ones go
 * (whatever their age, hence `olderThan` 0), in the scheduler's bounded batches.
 */
@Retention({
  owner: 'documents',
  name: 'documents:drive-sync-history-cleanup',
  table: 'drive_sync_history',
  age: 'triggered_at',
  olderThan: 0,
  every: DAY,
  where:
    `(SELECT count(*) FROM drive_sync_history newer ` +
    `WHERE newer.configuration_id = drive_sync_history.configuration_id ` +
    `AND (newer.triggered_at, newer.id) > (drive_sync_history.triggered_at, drive_sync_history.id)) ` +
    `>= ${HISTORY_KEPT}`,
})
@Injectable()
export class DriveSyncHistoryRetention {}
