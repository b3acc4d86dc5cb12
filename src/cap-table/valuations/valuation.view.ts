import { DateView, DecimalView, TimestampView, UuidView } from '../view-fields';

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
