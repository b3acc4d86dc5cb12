import { Transform } from 'class-transformer';
import { IsISO31661Alpha2, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const upper = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toUpperCase() : value;

/** Address fields to change; an omitted field is left as it is, `null` clears it. */
export class UpdateAddressDto {
  @Transform(trim)
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @MaxLength(200)
  line1?: string | null;

  @Transform(trim)
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @MaxLength(200)
  line2?: string | null;

  @Transform(trim)
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @MaxLength(120)
  city?: string | null;

  /** State, province or county. */
  @Transform(trim)
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @MaxLength(120)
  region?: string | null;

  @Transform(trim)
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsString()
  @MaxLength(20)
  postalCode?: string | null;

  /** ISO 3166-1 alpha-2 (`US`, `DE`); stored upper-case. */
  @Transform(upper)
  @ValidateIf((_, v) => v !== null)
  @IsOptional()
  @IsISO31661Alpha2()
  country?: string | null;
}
