import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { DateField, DecimalField } from '../../common';

export class RoundInvestmentDto {
  /** Who invests: a row of its own in `investors` and `byHolder`. Unique within the round. */
  @ApiProperty({ example: 'Series A Lead' })
  @IsString()
  @Length(1, 200)
  name: string;

  @DecimalField({ positive: true, example: '5000000' })
  amount: string;
}

export class OptionPoolTopUpDto {
  /**
   * The whole unallocated pool after the round (what is available now plus the increase), as a
   * percent (0–100, below 100) of the post-money fully diluted shares.
   */
  @DecimalField({ example: '10' })
  postMoneyPercent: string;
}

export class RoundModelDto {
  @DecimalField({ positive: true, example: '20000000' })
  preMoneyValuation: string;

  @ApiProperty({ type: [RoundInvestmentDto] })
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => RoundInvestmentDto)
  investments: RoundInvestmentDto[];

  @ApiPropertyOptional({ type: OptionPoolTopUpDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => OptionPoolTopUpDto)
  optionPoolTopUp?: OptionPoolTopUpDto;

  /** The pool increase counts in the pre-money shares (dilutes only existing holders). Default true. */
  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  poolIncludedInPreMoney?: boolean;

  /** Convert the outstanding SAFEs in the round. Default true. */
  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  convertSafes?: boolean;

  /** Convert the outstanding convertible notes in the round. Default true. */
  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  convertNotes?: boolean;

  /** The closing: notes accrue interest to this date. */
  @DateField()
  closingDate: string;

  /** The cap table the round starts from, as it stood on this date (default today). */
  @DateField({ optional: true })
  asOf?: string;

  /**
   * Round the price per share half up to this many decimals, as term sheets do; conversion
   * prices are rounded the same way. Default: the exact price.
   */
  @ApiPropertyOptional({ minimum: 0, maximum: 10, example: 4 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10)
  priceDecimals?: number;
}
