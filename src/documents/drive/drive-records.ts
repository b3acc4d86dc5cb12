import { Injectable, OnModuleInit } from '@nestjs/common';
import { RecordResolvers } from '../../common';
import { ownedSql } from '../../database';

/** The record kind of a sync configuration addressed by id (`sync-config/:id`). */
export const SYNC_CONFIGURATION = 'syncConfiguration';

/**
 * Teaches the permission guard where a sync configuration belongs, so that another
 * organization's, a deleted or an unknown configuration id answers 404 before any service runs.
 */
@Injectable()
export class DriveRecords implements OnModuleInit {
  constructor(private readonly resolvers: RecordResolvers) {}

  onModuleInit() {
    this.resolvers.register(
      SYNC_CONFIGURATION,
      ownedSql(
        'documents',
        'SELECT organization_id, NULL::uuid AS owner_user_id FROM drive_sync_configuration WHERE id = {id} AND deleted_at IS NULL',
      ),
    );
  }
}
