import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AggregateRepository } from '../../database';
import { membersOfUserSql } from '../../organizations';
import { Shareholding } from './shareholding.entity';
import { ShareBlockRow, shareholdingListSql } from './shareholding.view';

export const SHAREHOLDING_LIST_SQL = shareholdingListSql(membersOfUserSql);

/** Reads of shareholdings (their writes go through the ledger). */
@Injectable()
export class ShareholdingRepository extends AggregateRepository<Shareholding> {
  constructor(@InjectRepository(Shareholding) holdings: Repository<Shareholding>) {
    super(holdings);
  }

  async listJson(
    organizationId: string,
    options: { ownOf?: string; status: string | null; limit: number; offset: number },
  ): Promise<string> {
    const rows = await this.prepared<{ json: string }>(SHAREHOLDING_LIST_SQL, [
      organizationId,
      options.ownOf ?? null,
      options.status,
      options.limit,
      options.offset,
    ]);
    return rows[0].json;
  }

  /** Numbered share ranges per class, in share-number order. */
  blocks(organizationId: string, ownOf?: string): Promise<ShareBlockRow[]> {
    return this.prepared<ShareBlockRow>(
      `SELECT b.security_id AS security, b.shareholding_id AS shareholding, h.member_id AS member,
              h.certificate_number AS "certificateNumber",
              trim_scale(b.from_number)::text AS "from", trim_scale(b.to_number)::text AS "to"
       FROM share_block b JOIN shareholding h ON h.id = b.shareholding_id
       WHERE b.organization_id = $1
         AND ($2::uuid IS NULL OR h.member_id IN ${membersOfUserSql('$1', '$2')})
       ORDER BY b.security_id, b.from_number`,
      [organizationId, ownOf ?? null],
    );
  }
}
