import { ApiProperty } from '@nestjs/swagger';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import type { ShareholdingStatus } from '../ledger/ledger-state';
import { SHAREHOLDING_STATUSES } from '../ledger/transactions';
import { DateView, DecimalView, TimestampView, UuidView } from '../view-fields';
import { Shareholding } from './shareholding.entity';

/** A shareholding: shares of one class held by one member, under one certificate number. */
export class ShareholdingView {
  @UuidView()
  id: string;
  @UuidView()
  organization: string;
  /** The holder: a member of the organization. */
  @UuidView()
  member: string;
  /** The share class. */
  @UuidView()
  security: string;
  @DecimalView({ example: '1000000' })
  quantity: string;
  @DecimalView({ nullable: true, example: '0.0001' })
  pricePerShare: string | null;
  @DateView()
  issueDate: string;
  /** The class's certificate prefix and a number: `CS-1`. */
  certificateNumber: string;
  /** `transferred` once every share went to others. */
  @ApiProperty({ enum: SHAREHOLDING_STATUSES })
  status: ShareholdingStatus;
  /** Legend templates on the certificate. */
  @ApiProperty({ type: [String], format: 'uuid' })
  legendIds: string[];
  /** What was given for the shares (cash, services, IP ...). */
  consideration: string | null;
  @TimestampView()
  created: string;
}

/** A transfer: the transaction and the two shareholdings after it. */
export class TransferView {
  /** The transfer transaction. */
  @UuidView()
  id: string;
  /** The source: the balance (`transferred` when every share left it). */
  source: ShareholdingView;
  /** The holding of the recipient. */
  destination: ShareholdingView;
}

/** Operating-agreement settings of the cap table. */
export class ShareholdingConfig {
  @UuidView()
  organization: string;
  /** `units` for an LLC, `shares` otherwise. */
  @ApiProperty({ enum: ['shares', 'units'] })
  unitName: 'shares' | 'units';
  /** Fractional quantities are accepted (an LLC). */
  fractionalUnitsAllowed: boolean;
  /** The legends put on new shareholdings that name none. */
  @ApiProperty({ type: [String], format: 'uuid' })
  defaultLegendIds: string[];
}

/**
 * A numbered range of shares of a class held under one certificate (`from` to `to`, both
 * included). Shares are numbered per class in issuance order.
 */
export class ShareBlockRow {
  @UuidView()
  security: string;
  @UuidView()
  shareholding: string;
  @UuidView()
  member: string;
  certificateNumber: string;
  @DecimalView({ example: '1' })
  from: string;
  @DecimalView({ example: '1000000' })
  to: string;
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
