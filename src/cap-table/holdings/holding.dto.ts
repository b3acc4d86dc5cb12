import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO4217CurrencyCode,
  IsOptional,
  IsUUID,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { DAY_COUNT_CONVENTIONS, PERIOD_TYPES, type PeriodType } from '../../../libs/cap-math';
import { DateField, DecimalField, Omittable, PageQuery, TrimUpper } from '../../common';
import { HOLDING_TYPES, type HoldingType } from '../ledger/incentive-types';

/** Open Cap Format's TerminationWindowType: why the holder's service ended. */
export const TERMINATION_REASONS = [
  'VOLUNTARY_OTHER',
  'VOLUNTARY_GOOD_CAUSE',
  'VOLUNTARY_RETIREMENT',
  'INVOLUNTARY_OTHER',
  'INVOLUNTARY_DEATH',
  'INVOLUNTARY_DISABILITY',
  'INVOLUNTARY_WITH_CAUSE',
] as const;

export const INTEREST_TYPES = ['simple', 'compound'] as const;
export const SAFE_TYPES = ['pre_money', 'post_money'] as const;

/** How long after the end of service a grant can still be exercised (OCF TerminationWindow). */
export class TerminationWindowDto {
  @ApiProperty({ enum: TERMINATION_REASONS })
  @IsIn(TERMINATION_REASONS)
  reason: (typeof TERMINATION_REASONS)[number];

  @ApiProperty({ example: 90 })
  @IsInt()
  @Min(0)
  @Max(1200)
  period: number;

  @ApiProperty({ enum: PERIOD_TYPES })
  @IsIn(PERIOD_TYPES)
  periodType: PeriodType;
}

/**
 * The terms of every holding type, each optional here: which ones a type takes, needs and may
 * change is decided per type by holding-fields.ts (a field of another type is refused, a missing
 * required one is `invalidFields`). Fields never cleared refuse null (Omittable); the nullable
 * ones clear (or go back to their default) with null.
 */
export class HoldingTermsDto {
  /** Grants: the plan, fixed once granted. */
  @ApiPropertyOptional({ format: 'uuid' })
  @Omittable()
  @IsUUID()
  plan?: string;

  /** Grants: the plan's pool the grant takes its shares from, fixed once granted. */
  @ApiPropertyOptional({ format: 'uuid' })
  @Omittable()
  @IsUUID()
  pool?: string;

  /** Warrants: the class the warrant is exercised into, fixed once issued. */
  @ApiPropertyOptional({ format: 'uuid' })
  @Omittable()
  @IsUUID()
  security?: string;

  /** Grants and warrants: shares granted (whole unless the organization is an LLC). */
  @DecimalField({ optional: true, nullable: false, positive: true, example: '4800' })
  quantity?: string;

  /** Options, SARs and warrants (required); RSUs may leave it out. */
  @DecimalField({ optional: true, example: '0.25' })
  exercisePrice?: string | null;

  /** Grants and warrants: the grant (issue) date, effective date of the issuance. */
  @DateField({ optional: true, nullable: false })
  grantDate?: string;

  @DateField({ optional: true })
  expirationDate?: string | null;

  /** Grants: a vesting schedule (version) of the organization; none means vested at once. */
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @IsOptional()
  @IsUUID()
  vestingSchedule?: string | null;

  /** Grants: when vesting starts; default (and null) the grant date. */
  @DateField({ optional: true })
  vestingStartDate?: string | null;

  /** Grants: unvested shares may be exercised; default false. */
  @ApiPropertyOptional({ default: false })
  @Omittable()
  @IsBoolean()
  earlyExercisable?: boolean;

  /** Grants: exercise windows after termination, one per reason; default none. */
  @ApiPropertyOptional({ type: [TerminationWindowDto] })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(TERMINATION_REASONS.length)
  @ValidateNested({ each: true })
  @Type(() => TerminationWindowDto)
  terminationExerciseWindows?: TerminationWindowDto[];

  /** Convertible notes: the amount lent. */
  @DecimalField({ optional: true, nullable: false, positive: true, example: '100000' })
  principal?: string;

  /** SAFEs: the purchase amount. */
  @DecimalField({ optional: true, nullable: false, positive: true, example: '100000' })
  amount?: string;

  /** Notes and SAFEs: ISO 4217; default the organization's currency. */
  @ApiPropertyOptional({ example: 'USD' })
  @TrimUpper()
  @Omittable()
  @IsISO4217CurrencyCode()
  currency?: string;

  /** Notes: annual rate in percent, `"6"` for 6% (at most 100). */
  @DecimalField({ optional: true, nullable: false, example: '6' })
  interestRate?: string;

  @ApiPropertyOptional({ enum: INTEREST_TYPES })
  @Omittable()
  @IsIn(INTEREST_TYPES)
  interestType?: (typeof INTEREST_TYPES)[number];

  @ApiPropertyOptional({ enum: DAY_COUNT_CONVENTIONS })
  @Omittable()
  @IsIn(DAY_COUNT_CONVENTIONS)
  dayCount?: (typeof DAY_COUNT_CONVENTIONS)[number];

  /** Notes and SAFEs: the issue date (a note accrues interest from it). */
  @DateField({ optional: true, nullable: false })
  issueDate?: string;

  /** Notes: on or after the issue date. */
  @DateField({ optional: true, nullable: false })
  maturityDate?: string;

  /** Notes and SAFEs: the valuation cap in money (post-money for a post-money SAFE). */
  @DecimalField({ optional: true, positive: true, example: '4000000' })
  valuationCap?: string | null;

  /** Notes and SAFEs: percent off the round price, `"20"` for 20% (below 100). */
  @DecimalField({ optional: true, example: '20' })
  discount?: string | null;

  @ApiPropertyOptional({ enum: SAFE_TYPES })
  @Omittable()
  @IsIn(SAFE_TYPES)
  safeType?: (typeof SAFE_TYPES)[number];

  /** SAFEs: most favoured nation clause; default false. */
  @ApiPropertyOptional({ default: false })
  @Omittable()
  @IsBoolean()
  mfn?: boolean;

  /** SAFEs: pro rata rights; default false. */
  @ApiPropertyOptional({ default: false })
  @Omittable()
  @IsBoolean()
  proRata?: boolean;
}

/** `POST /v1/holding`: the organization, the holder, the type and the terms of the type. */
export class CreateHoldingDto extends HoldingTermsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  organization: string;

  /** The holder: a current member of the organization. */
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  member: string;

  @ApiProperty({ enum: HOLDING_TYPES })
  @IsIn(HOLDING_TYPES)
  type: HoldingType;
}

/**
 * `PUT` (every editable field of the holding's type; an omitted optional one is cleared or
 * defaulted) and `PATCH` (any of them) of `/v1/holding/:holding`. The holder, type, plan, pool
 * and class are accepted only unchanged.
 */
export class AmendHoldingDto extends HoldingTermsDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Omittable()
  @IsUUID()
  organization?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Omittable()
  @IsUUID()
  member?: string;

  @ApiPropertyOptional({ enum: HOLDING_TYPES })
  @Omittable()
  @IsIn(HOLDING_TYPES)
  type?: HoldingType;
}

/** `POST /v1/holding/:holding/repay`: interest owed first, then principal. */
export class RepayDto {
  @DecimalField({ positive: true, example: '25000' })
  amount: string;

  /** The payment date: interest accrues up to it; not before the last repayment. */
  @DateField()
  date: string;
}

/** `POST /v1/holding/:holding/convert`: into shares of `security` in a priced round. */
export class ConvertDto {
  /** The date of the financing: the capitalization is the one just before it. */
  @DateField()
  date: string;

  /** The class the holding converts into (the round's preferred). */
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  security: string;

  /** Price per share of the round's standard preferred. */
  @DecimalField({ positive: true, example: '1.1144' })
  pricePerShare: string;

  /** Recorded with the conversion for the record; the price is `pricePerShare`. */
  @DecimalField({ optional: true, positive: true, example: '15000000' })
  preMoneyValuation?: string | null;
}

/** `GET /v1/holding`: `?limit` (default 100, at most 1000) and `?offset`. */
export class ListMyHoldingsQuery extends PageQuery {}

/** `GET /v1/organization/:organization/holding`: a page (`?limit`, `?offset`), of one `?type`. */
export class ListOrganizationHoldingsQuery extends PageQuery {
  /** Only holdings of this type; every type when left out. */
  @ApiPropertyOptional({ enum: HOLDING_TYPES })
  @IsOptional()
  @IsIn(HOLDING_TYPES)
  type?: HoldingType;
}
