import { ApiProperty } from '@nestjs/swagger';
import { ValuationView } from '../valuations/valuation.view';
import { DateView, DecimalView, UuidView } from '../view-fields';

/** A holder's shares: issued, and as a part of the fully diluted shares. */
export class DashboardHolderRow {
  @UuidView()
  member: string;
  /** The member's name (empty when the member record is gone). */
  name: string;
  /** Issued shares held. */
  @DecimalView()
  shares: string;
  /** Of the issued shares, 0–100 with 4 decimals. */
  @DecimalView({ example: '12.5' })
  percent: string;
  /** Of the fully diluted shares (grants, warrants and convertibles counted), 0–100. */
  @DecimalView({ example: '10.2041' })
  fullyDilutedPercent: string;
}

/** A share class: authorized and issued shares. */
export class DashboardClassRow {
  @UuidView()
  security: string;
  name: string;
  @DecimalView({ example: '10000000' })
  authorized: string;
  @DecimalView()
  issued: string;
  /** Of all issued shares, 0–100 with 4 decimals. */
  @DecimalView({ example: '100' })
  percent: string;
}

/** The cap table at a glance. Percentages add up to exactly 100. */
export class Dashboard {
  @DateView()
  asOf: string;
  @DecimalView()
  authorized: string;
  @DecimalView()
  issued: string;
  /** Issued shares (no treasury shares exist). */
  @DecimalView()
  outstanding: string;
  /** Issued shares, outstanding grants and warrants, the pools' available shares and the convertibles as converted. */
  @DecimalView()
  fullyDiluted: string;
  /** Largest holders first; every holder for roles with canViewCapitalizationOrSelf, else the caller's own rows. */
  byHolder: DashboardHolderRow[];
  /** Most senior class first. */
  byClass: DashboardClassRow[];
  /** The valuation in effect on `asOf`; null when none, or for roles without canViewValuation. */
  @ApiProperty({ type: ValuationView, nullable: true })
  latestValuation: ValuationView | null;
}
