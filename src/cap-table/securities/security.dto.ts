import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsISO4217CurrencyCode,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { DateField, DecimalField, Trim, TrimUpper } from '../../common';

/** A share class (OCF StockClass). */
export class SecurityDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiProperty({ enum: ['common', 'preferred'] })
  @IsIn(['common', 'preferred'])
  classType: 'common' | 'preferred';

  /** Certificate prefix such as `CS-` (letters, digits, `-`, `_`, `.`). */
  @Trim()
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,20}$/, {
    message: 'idPrefix must be 1 to 20 letters, digits, dots, dashes or underscores',
  })
  idPrefix: string;

  @DecimalField({ example: '10000000' })
  authorizedShares: string;

  @DecimalField({ optional: true, example: '0.0001' })
  parValue?: string | null;

  @DecimalField({ optional: true, example: '1.25' })
  originalIssuePrice?: string | null;

  /** ISO 4217; default the organization's currency. */
  @TrimUpper()
  @IsOptional()
  @IsISO4217CurrencyCode()
  currency?: string;

  /** Order of liquidation (higher is paid first); default 1. */
  @ApiPropertyOptional({ example: 1 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1000)
  seniority?: number;

  @DecimalField({ optional: true, example: '1' })
  liquidationPreferenceMultiple?: string | null;

  /** Participating preferred: takes its preference, then shares with common; default false. */
  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  participating?: boolean;

  /**
   * For participating classes: the most a share receives, preference included, as a multiple of
   * its original issue price; absent = no cap.
   */
  @DecimalField({ optional: true, example: '3' })
  participationCapMultiple?: string | null;

  /** Shares of common per share of this class on conversion; default 1. */
  @DecimalField({ optional: true, example: '1' })
  conversionRatio?: string | null;

  /** Default 1. */
  @DecimalField({ optional: true, example: '1' })
  votesPerShare?: string | null;

  @DateField({ optional: true })
  boardApprovalDate?: string | null;
}

/**
 * `POST .../security/:security/split`: `numerator` new shares for every `denominator` held (2
 * and 1 double every holding; 1 and 10 is a reverse split).
 */
export class SplitDto {
  @DecimalField({ positive: true, example: '2' })
  numerator: string;

  @DecimalField({ positive: true, example: '1' })
  denominator: string;

  /** When the split takes effect; default today. */
  @DateField({ optional: true })
  date?: string;
}

/** `POST .../security/:security/shares`: more authorized shares, as an adjustment transaction. */
export class AddSharesDto {
  @DecimalField({ positive: true, example: '1000000' })
  quantity: string;

  /** When the adjustment takes effect; default today. */
  @DateField({ optional: true })
  date?: string;

  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
