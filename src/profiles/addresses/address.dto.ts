import { Trim, TrimUpper } from '../../common';
import { IsISO31661Alpha2, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

/** Address fields to change; an omitted field is left as it is, `null` clears it. */
export class UpdateAddressDto {
  @Trim()
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @MaxLength(200)
  line1?: string | null;

  @Trim()
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @MaxLength(200)
  line2?: string | null;

  @Trim()
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @MaxLength(120)
  city?: string | null;

  /** State, province or county. */
  @Trim()
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @MaxLength(120)
  region?: string | null;

  @Trim()
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @MaxLength(20)
  postalCode?: string | null;

  /** ISO 3166-1 alpha-2 (`US`, `DE`); stored upper-case. */
  @TrimUpper()
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsISO31661Alpha2()
  country?: string | null;
}
