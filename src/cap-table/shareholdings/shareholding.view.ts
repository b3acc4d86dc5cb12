import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import type { ShareholdingStatus } from '../ledger/ledger-state';
import { Shareholding } from './shareholding.entity';

export interface ShareholdingView {
  id: string;
  organization: string;
  member: string;
  security: string;
  quantity: string;
  pricePerShare: string | null;
  issueDate: string;
  certificateNumber: string;
  status: ShareholdingStatus;
  legendIds: string[];
  consideration: string | null;
  created: string;
}

export const toShareholdingView = (h: Shareholding): ShareholdingView => ({
  id: h.id,
  organization: h.organizationId,
  member: h.memberId,
  security: h.securityId,
  quantity: toDecimalString(toDecimal(h.quantity)),
  pricePerShare: h.pricePerShare === null ? null : toDecimalString(toDecimal(h.pricePerShare)),
  issueDate: h.issueDate,
  certificateNumber: h.certificateNumber,
  status: h.status,
  legendIds: h.legendIds,
  consideration: h.consideration,
  created: h.created.toISOString(),
});

/**
 * The shareholding list as JSON, built by PostgreSQL in the key order of ShareholdingView
 * (decimals without trailing zeros, dates and timestamps as the API writes them).
 * `$1` organization, `$2` a user whose own holdings only (or null), `$3` a status (or null for
 * all), `$4` limit, `$5` offset.
 */
export const shareholdingListSql = (ownHoldingsOf: (org: string, user: string) => string) => `
  SELECT coalesce('[' || string_agg(row_to_json(t)::text, ',' ORDER BY t.created, t.id) || ']', '[]') AS json
  FROM (
    SELECT h.id, h.organization_id AS organization, h.member_id AS member, h.security_id AS security,
           trim_scale(h.quantity)::text AS quantity,
           trim_scale(h.price_per_share)::text AS "pricePerShare",
           to_char(h.issue_date, 'YYYY-MM-DD') AS "issueDate",
           h.certificate_number AS "certificateNumber", h.status, h.legend_ids AS "legendIds",
           h.consideration,
           to_char(h.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created
    FROM shareholding h
    WHERE h.organization_id = $1
      AND ($2::uuid IS NULL OR h.member_id IN ${ownHoldingsOf('$1', '$2')})
      AND ($3::varchar IS NULL OR h.status = $3)
    ORDER BY h.created, h.id
    LIMIT $4 OFFSET $5
  ) t`;
