import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { OrganizationFacts, OrganizationsDirectory } from '../../organizations';
import type { ShareholdingStatus } from '../ledger/ledger-state';
import type { ClassType } from '../ledger/transaction-types';
import { Legend } from '../legends/legend.entity';
import { Shareholding } from '../shareholdings/shareholding.entity';

export interface CertificateLegend {
  name: string;
  text: string;
}

/** What a share certificate shows. Decimals are canonical strings (`1250.5`, no trailing zeros). */
export interface ShareCertificateFacts {
  /** The organization's legal name, or its name when it has none. */
  organizationName: string;
  organizationType: OrganizationFacts['type'];
  certificateNumber: string;
  holderName: string;
  className: string;
  classType: ClassType;
  parValue: string | null;
  currency: string;
  /**
   * The shares the certificate stands for: the holding's quantity; for a holding transferred in
   * full (quantity 0), what it held until the transfer that cancelled it.
   */
  quantity: string;
  /** `YYYY-MM-DD`. */
  issueDate: string;
  status: ShareholdingStatus;
  /** The legends the holding bears, in its order, with their full text. */
  legends: CertificateLegend[];
}

export interface LegendCertificateFacts {
  organizationName: string;
  name: string;
  text: string;
}

type ShareholdingRow = Omit<
  ShareCertificateFacts,
  'legends' | 'organizationName' | 'organizationType' | 'holderName'
> & {
  organizationId: string;
  memberId: string;
  legendIds: string[];
};

/** A certificate's shareholding and class; its organization and holder come from organizations. */
const SHAREHOLDING_SQL = `
  SELECT h.organization_id AS "organizationId", h.member_id AS "memberId",
         h.certificate_number AS "certificateNumber",
         s.name AS "className", s.class_type AS "classType",
         trim_scale(s.par_value)::text AS "parValue", s.currency,
         trim_scale(h.quantity)::text AS quantity, to_char(h.issue_date, 'YYYY-MM-DD') AS "issueDate",
         h.status, h.legend_ids AS "legendIds"
  FROM shareholding h
  JOIN security s ON s.id = h.security_id
  WHERE h.id = $1`;

/** The transfer that emptied a holding is the last one out of it in the log. */
const LAST_TRANSFER_SQL = `
  SELECT t.payload->>'quantity' AS quantity
  FROM equity_transaction t JOIN shareholding h ON h.organization_id = t.organization_id
  WHERE h.id = $1 AND t.type = 'TX_STOCK_TRANSFER' AND t.payload->>'sourceId' = $1::text
  ORDER BY t.sequence DESC LIMIT 1`;

const LEGEND_SQL = `
  SELECT l.name, l.text FROM legend l
  WHERE l.id = $1 AND l.organization_id = $2 AND l.deleted_at IS NULL`;

/** Certificates are printed with the organization's legal name, or its name when it has none. */
const printedName = (o: OrganizationFacts) => o.legalName ?? o.name;

/**
 * What a share or legend certificate shows, read from the cap table (for the documents module,
 * which draws the PDF). The permission guard has already decided the caller may read the record.
 */
@Injectable()
export class CertificateFacts {
  constructor(
    @InjectRepository(Shareholding) private readonly shareholdings: Repository<Shareholding>,
    @InjectRepository(Legend) private readonly legends: Repository<Legend>,
    private readonly organizations: OrganizationsDirectory,
  ) {}

  async shareholding(id: string): Promise<ShareCertificateFacts | null> {
    const [row] = (await this.shareholdings.query(SHAREHOLDING_SQL, [id])) as ShareholdingRow[];
    if (!row) return null;
    const { organizationId, memberId, legendIds, ...facts } = row;
    const [organization, holders] = await Promise.all([
      this.organizations.organization(organizationId),
      this.organizations.membersById(organizationId, [memberId]),
    ]);
    if (!organization) return null;
    return {
      organizationName: printedName(organization),
      organizationType: organization.type,
      holderName: holders.get(memberId)?.name ?? '',
      ...facts,
      quantity: row.status === 'transferred' ? await this.lastTransferred(id) : row.quantity,
      legends: await this.legendsOf(legendIds),
    };
  }

  /** A legend of the organization (not deleted), or null. */
  async legend(organizationId: string, id: string): Promise<LegendCertificateFacts | null> {
    const [[row], organization] = await Promise.all([
      this.legends.query(LEGEND_SQL, [id, organizationId]) as Promise<CertificateLegend[]>,
      this.organizations.organization(organizationId),
    ]);
    return row && organization ? { organizationName: printedName(organization), ...row } : null;
  }

  private async lastTransferred(id: string): Promise<string> {
    const [row] = (await this.shareholdings.query(LAST_TRANSFER_SQL, [id])) as {
      quantity: string;
    }[];
    return toDecimalString(toDecimal(row?.quantity ?? 0));
  }

  /**
   * The legends a holding bears, deleted ones too: a legend can only be deleted once no active
   * holding bears it, and a voided or cancelled certificate still shows what it was issued with.
   */
  private async legendsOf(ids: string[]): Promise<CertificateLegend[]> {
    if (!ids.length) return [];
    return (await this.legends.query(
      `SELECT name, text FROM legend WHERE id = ANY($1::uuid[])
       ORDER BY array_position($1::uuid[], id)`,
      [ids],
    )) as CertificateLegend[];
  }
}
