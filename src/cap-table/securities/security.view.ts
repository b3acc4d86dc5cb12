import { ApiProperty } from '@nestjs/swagger';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { DateView, DecimalView, TimestampView, UuidView } from '../view-fields';
import { Security } from './security.entity';

/** A share class (OCF StockClass). Decimals as exact text. */
export class SecurityView {
  @UuidView()
  id: string;
  @UuidView()
  organization: string;
  name: string;
  @ApiProperty({ enum: ['common', 'preferred'] })
  classType: 'common' | 'preferred';
  /** Certificate prefix such as `CS-`. */
  idPrefix: string;
  @DecimalView({ example: '10000000' })
  authorizedShares: string;
  @DecimalView({ example: '1000000' })
  issuedShares: string;
  /** Held back for stock plans (reserved, less exercised and retired): not issuable otherwise. */
  @DecimalView({ example: '0' })
  reservedShares: string;
  @DecimalView({ nullable: true, example: '0.0001' })
  parValue: string | null;
  @DecimalView({ nullable: true, example: '1.25' })
  originalIssuePrice: string | null;
  /** ISO 4217. */
  @ApiProperty({ example: 'USD' })
  currency: string;
  /** Order of liquidation (higher is paid first). */
  @ApiProperty({ type: 'integer', example: 1 })
  seniority: number;
  @DecimalView({ nullable: true, example: '1' })
  liquidationPreferenceMultiple: string | null;
  /** Participating preferred: takes its preference, then shares with common. */
  participating: boolean;
  /** The most a participating share receives, as a multiple of its original issue price. */
  @DecimalView({ nullable: true, example: '3' })
  participationCapMultiple: string | null;
  /** Shares of common per share of this class on conversion. */
  @DecimalView({ example: '1' })
  conversionRatio: string;
  @DecimalView({ example: '1' })
  votesPerShare: string;
  @DateView({ nullable: true })
  boardApprovalDate: string | null;
  @TimestampView()
  created: string;
  @TimestampView()
  updated: string;
}

const dec = (v: string | null) => (v === null ? null : toDecimalString(toDecimal(v)));

export const toSecurityView = (s: Security): SecurityView => ({
  id: s.id,
  organization: s.organizationId,
  name: s.name,
  classType: s.classType,
  idPrefix: s.idPrefix,
  authorizedShares: dec(s.authorizedShares)!,
  issuedShares: dec(s.issuedShares)!,
  reservedShares: dec(s.reservedShares)!,
  parValue: dec(s.parValue),
  originalIssuePrice: dec(s.originalIssuePrice),
  currency: s.currency,
  seniority: s.seniority,
  liquidationPreferenceMultiple: dec(s.liquidationPreferenceMultiple),
  participating: s.participating,
  participationCapMultiple: dec(s.participationCapMultiple),
  conversionRatio: dec(s.conversionRatio)!,
  votesPerShare: dec(s.votesPerShare)!,
  boardApprovalDate: s.boardApprovalDate,
  created: s.created.toISOString(),
  updated: s.updated.toISOString(),
});

/** One shareholding of the class before and after a split. */
export class SplitShareholdingView {
  @UuidView()
  id: string;
  certificateNumber: string;
  @UuidView()
  member: string;
  @DecimalView({ example: '1000' })
  quantityBefore: string;
  @DecimalView({ example: '2000' })
  quantityAfter: string;
  /** The fraction of a share rounded away (the company pays it out); `0` when none was. */
  @DecimalView({ example: '0' })
  fractionalRemainder: string;
  /** `voided` when a reverse split left it with no whole share. */
  @ApiProperty({ enum: ['active', 'voided'] })
  status: 'active' | 'voided';
}

/** A split of a class (OCF TX_STOCK_CLASS_SPLIT) and what it did to each shareholding. */
export class SplitView {
  /** The log entry of the split. */
  @UuidView()
  id: string;
  @DecimalView({ example: '2' })
  numerator: string;
  @DecimalView({ example: '1' })
  denominator: string;
  @DateView()
  date: string;
  /** The class afterwards: authorized and issued shares, prices and conversion ratio adjusted. */
  security: SecurityView;
  @ApiProperty({ type: [SplitShareholdingView] })
  shareholdings: SplitShareholdingView[];
}
