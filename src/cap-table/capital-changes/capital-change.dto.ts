import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsISO4217CurrencyCode,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { DateField, DecimalField, Omittable, TrimUpper } from '../../common';

export const CAPITAL_CHANGE_TYPES = ['contribution', 'distribution'] as const;

export class CreateCapitalChangeDto {
  @IsUUID()
  organization: string;

  /** The member whose entity (the path's `:entity`) contributed or received the money. */
  @IsUUID()
  member: string;

  @DateField()
  date: string;

  @DecimalField({ positive: true, example: '25000' })
  amount: string;

  /** ISO 4217. */
  @TrimUpper()
  @IsISO4217CurrencyCode()
  currency: string;

  @ApiProperty({ enum: CAPITAL_CHANGE_TYPES })
  @IsIn(CAPITAL_CHANGE_TYPES)
  type: (typeof CAPITAL_CHANGE_TYPES)[number];

  @ApiPropertyOptional({ nullable: true })
  @ValidateIf((_o, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(2000)
  description?: string | null;
}

/** Edits one capital change (`id`) of the entity. */
export class UpdateCapitalChangeDto {
  @IsUUID()
  organization: string;

  @IsUUID()
  id: string;

  // Omitted keeps the value; null is refused (the columns are required), hence no IsOptional.
  @DateField({ optional: true, nullable: false })
  date?: string;

  @DecimalField({ optional: true, nullable: false, positive: true, example: '25000' })
  amount?: string;

  @TrimUpper()
  @Omittable()
  @IsISO4217CurrencyCode()
  currency?: string;

  @ApiPropertyOptional({ enum: CAPITAL_CHANGE_TYPES })
  @Omittable()
  @IsIn(CAPITAL_CHANGE_TYPES)
  type?: (typeof CAPITAL_CHANGE_TYPES)[number];

  @ApiPropertyOptional({ nullable: true })
  @ValidateIf((_o, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(2000)
  description?: string | null;
}
