import { ApiProperty } from '@nestjs/swagger';
import { DateView, DecimalView, UuidView } from '../view-fields';

/** A SAFE or convertible note converting in the round. */
export class RoundConversionView {
  /** The SAFE or note. */
  @UuidView()
  holding: string;
  @UuidView()
  member: string;
  @ApiProperty({ enum: ['safe', 'convertible_note'] })
  type: 'safe' | 'convertible_note';
  /** The purchase amount or the principal outstanding. */
  @DecimalView({ example: '500000' })
  amount: string;
  /** A note's unpaid interest to the closing date (0 for a SAFE). */
  @DecimalView({ example: '0' })
  accruedInterest: string;
  @DecimalView()
  shares: string;
  /** The conversion price. */
  @DecimalView({ example: '0.8' })
  pricePerShare: string;
  /** What set the price: the valuation cap, the discount, the round price, or the round price as an MFN SAFE. */
  @ApiProperty({ enum: ['cap', 'discount', 'round', 'mfn'] })
  basis: 'cap' | 'discount' | 'round' | 'mfn';
}

/** A new investor of the round. */
export class RoundInvestorView {
  name: string;
  @DecimalView({ example: '5000000' })
  amount: string;
  @DecimalView()
  shares: string;
}

/** A row of the pro-forma: a holder, a new investor or the unallocated pool. */
export class RoundHolderRow {
  /** The member; null for a new investor and for the pool. */
  @UuidView({ nullable: true })
  member: string | null;
  name: string;
  @ApiProperty({ enum: ['holder', 'investor', 'pool'] })
  kind: 'holder' | 'investor' | 'pool';
  @DecimalView()
  sharesBefore: string;
  @DecimalView()
  sharesAfter: string;
  /** 0–100. */
  @DecimalView({ example: '25' })
  fullyDilutedPercentBefore: string;
  /** Of the post-money fully diluted shares, 0–100 with 4 decimals; the rows sum to 100. */
  @DecimalView({ example: '20' })
  fullyDilutedPercentAfter: string;
}

/** A priced round modeled on the cap table (nothing is stored). */
export class RoundModelView {
  @DateView()
  asOf: string;
  @DateView()
  closingDate: string;
  @DecimalView({ example: '1.25' })
  pricePerShare: string;
  @DecimalView({ example: '20000000' })
  preMoneyValuation: string;
  @DecimalView()
  preMoneyFullyDilutedShares: string;
  @DecimalView({ example: '25000000' })
  postMoneyValuation: string;
  @DecimalView()
  postMoneyFullyDilutedShares: string;
  @DecimalView({ example: '5000000' })
  newMoney: string;
  /** Shares added to the unallocated pool (never negative). */
  @DecimalView({ example: '0' })
  poolIncrease: string;
  conversions: RoundConversionView[];
  investors: RoundInvestorView[];
  byHolder: RoundHolderRow[];
}
