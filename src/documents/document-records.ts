import { Injectable, OnModuleInit } from '@nestjs/common';
import { holdsIncentiveSql } from '../cap-table';
import { RecordResolvers } from '../common';
import { ownedSql } from '../database';

/**
 * Teaches the permission guard where documents belong: a data room or suite entry to its organization, a
 * stored file to its organization (for `canViewFile` its owner is its uploader, or a grantee for a
 * grant agreement or plan document), or to nobody but its user for a profile's file.
 */
@Injectable()
export class DocumentRecords implements OnModuleInit {
  constructor(private readonly resolvers: RecordResolvers) {}

  onModuleInit() {
    // The access query (organizations') embeds these: marked as this module's SQL.
    const register = (kind: string, sql: string) =>
      this.resolvers.register(kind, ownedSql('documents', sql));
    // A data room entry, or an entry of the suite store's index (never an organization's folder).
    register(
      'document',
      `SELECT organization_id, NULL::uuid AS owner_user_id FROM document WHERE id = {id} AND deleted_at IS NULL
       UNION ALL
       SELECT organization_id, NULL::uuid FROM suite_item WHERE id = {id} AND NOT root`,
    );
    // A file's owner: the user of a personal file; else the caller when the file is a grant
    // agreement of their holding or a document of a plan they hold a grant in; else its uploader.
    register(
      'file',
      `SELECT f.organization_id,
              CASE
                WHEN f.owner_user_id IS NOT NULL THEN f.owner_user_id
                WHEN ${holdsIncentiveSql('{user}', 'f.holding_id', 'f.plan_id')} THEN {user}
                ELSE f.uploaded_by_user_id
              END AS owner_user_id
       FROM stored_file f WHERE f.id = {id} AND f.deleted_at IS NULL`,
    );
  }
}
