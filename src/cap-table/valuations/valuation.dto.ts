import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { DateField, DecimalField, Trim } from '../../common';

/** `PUT /v1/valuation`: creates a valuation, or updates the one named by `id`. */
export class PutValuationDto {
  @IsUUID()
  organization: string;

  /** The valuation to update; omitted to record a new one. */
  @IsOptional()
  @IsUUID()
  id?: string;

  /** The kind: `409A`, `preferred_round`, `common`, `fair_market_value`, `other` ... */
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(40)
  @Matches(/^[A-Za-z0-9_ -]+$/, {
    message: 'type must be letters, digits, spaces, dashes or underscores',
  })
  type: string;

  @DecimalField({ positive: true, example: '0.85' })
  pricePerShare: string;

  /** The class valued; null for the company as a whole. */
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @ValidateIf((_o, v) => v !== undefined && v !== null)
  @IsUUID()
  security?: string | null;

  @DateField()
  effectiveDate: string;

  @Trim()
  @ValidateIf((_o, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(200)
  provider?: string | null;

  /** Id of the uploaded report (a file of the organization). */
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @ValidateIf((_o, v) => v !== undefined && v !== null)
  @IsUUID()
  reportFile?: string | null;
}
