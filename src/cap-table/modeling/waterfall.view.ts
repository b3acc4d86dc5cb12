import { ApiProperty } from '@nestjs/swagger';
import { DateView, DecimalView, UuidView } from '../view-fields';

const MONEY = '^\\d+\\.\\d{2}$';

/** Money with 2 decimals. */
const Money = (options: { nullable?: boolean } = {}) =>
  ApiProperty({ type: String, pattern: MONEY, example: '1250000.00', ...options });

/** What a class receives. */
export class WaterfallClassRow {
  @UuidView()
  security: string;
  name: string;
  /** Its liquidation preference paid. */
  @Money()
  preference: string;
  /** Its share of what is left (as participating or as converted). */
  @Money()
  participation: string;
  /** The class converted to common. */
  converted: boolean;
  @Money()
  proceeds: string;
}

/** What a holder receives. */
export class WaterfallHolderRow {
  @UuidView()
  member: string;
  name: string;
  @Money()
  proceeds: string;
  /** 0–100 with 4 decimals. */
  @DecimalView({ example: '12.5' })
  percentOfProceeds: string;
}

/** What a grant or warrant receives (exercised cashlessly when in the money). */
export class WaterfallOptionRow {
  @UuidView()
  holding: string;
  @UuidView()
  member: string;
  exercised: boolean;
  @Money()
  proceeds: string;
}

/** What a SAFE or note receives. */
export class WaterfallConvertibleRow {
  @UuidView()
  holding: string;
  @UuidView()
  member: string;
  /** Converted at its valuation cap rather than cashed out. */
  converted: boolean;
  /** The price it converted at; null when cashed out. */
  @DecimalView({ nullable: true, example: '0.8' })
  conversionPrice: string | null;
  @Money()
  proceeds: string;
}

/** The exit waterfall (nothing is stored). Proceeds add up to `distributable` to the cent. */
export class WaterfallView {
  @DateView()
  asOf: string;
  @DecimalView({ example: '50000000' })
  exitValue: string;
  @DecimalView({ example: '250000' })
  transactionExpenses: string;
  /** exitValue − transactionExpenses, never below 0. */
  @Money()
  distributable: string;
  /** What one common share receives (at most 10 decimals). */
  @DecimalView({ example: '2.5' })
  commonSharePrice: string;
  byClass: WaterfallClassRow[];
  byHolder: WaterfallHolderRow[];
  options: WaterfallOptionRow[];
  convertibles: WaterfallConvertibleRow[];
  /** What had to be assumed (a preferred class without originalIssuePrice ...). */
  warnings: string[];
}

export const BREAKPOINT_KINDS = [
  'expenses',
  'preference',
  'participation-cap',
  'conversion',
  'options-in-the-money',
] as const;

/** Why a payout changes slope at a breakpoint. */
export class BreakpointEventView {
  @ApiProperty({ enum: BREAKPOINT_KINDS })
  kind: (typeof BREAKPOINT_KINDS)[number];
  description: string;
  /** The class concerned. */
  @UuidView({ nullable: true })
  security: string | null;
  /** The SAFE or note concerned. */
  @UuidView({ nullable: true })
  holding: string | null;
  /** The grants and warrants coming into the money. */
  @ApiProperty({ type: [String], format: 'uuid' })
  options: string[];
}

/** An exit value at which some payout changes slope. */
export class BreakpointView {
  /** Rounded up to the cent. */
  @DecimalView({ example: '5000000' })
  exitValue: string;
  /** The classes whose payout changes slope here. */
  @ApiProperty({ type: [String], format: 'uuid' })
  securities: string[];
  events: BreakpointEventView[];
}

/** The waterfall's breakpoints, sorted by exit value. */
export class BreakpointsView {
  @DateView()
  asOf: string;
  breakpoints: BreakpointView[];
  warnings: string[];
}
