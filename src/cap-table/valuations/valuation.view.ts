import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { DateView, DecimalView, TimestampView, UuidView } from '../view-fields';
import { Valuation } from './valuation.entity';

/** A valuation (409A and the like): a price per share in effect from a date. */
export class ValuationView {
  @UuidView()
  id: string;
  @UuidView()
  organization: string;
  /** The kind: `409A`, `preferred_round`, `common`, `fair_market_value`, `other` ... */
  type: string;
  @DecimalView({ example: '0.85' })
  pricePerShare: string;
  @UuidView({ nullable: true, description: 'The class valued; null for the company as a whole.' })
  security: string | null;
  @DateView()
  effectiveDate: string;
  provider: string | null;
  @UuidView({
    nullable: true,
    description: 'Id of the uploaded report (a file of the organization).',
  })
  reportFile: string | null;
  @TimestampView()
  created: string;
  @TimestampView()
  updated: string;
}

export const toValuationView = (v: Valuation): ValuationView => ({
  id: v.id,
  organization: v.organizationId,
  type: v.type,
  pricePerShare: toDecimalString(toDecimal(v.pricePerShare)),
  security: v.securityId,
  effectiveDate: v.effectiveDate,
  provider: v.provider,
  reportFile: v.reportFileId,
  created: v.created.toISOString(),
  updated: v.updated.toISOString(),
});
