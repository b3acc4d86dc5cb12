import { Transform } from 'class-transformer';
import {
  IsIn,
  IsISO31661Alpha2,
  IsISO4217CurrencyCode,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { ORGANIZATION_TYPES, OrganizationType } from './organization.entity';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const upper = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toUpperCase() : value;

export class CreateOrganizationDto {
  /** Display name. */
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  /** Registered legal name, when it differs. */
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(300)
  legalName?: string;

  /** ISO 3166-1 alpha-2 country of incorporation. */
  @Transform(upper)
  @IsOptional()
  @IsISO31661Alpha2()
  country?: string;

  /** ISO 4217 currency of the cap table; default USD. */
  @Transform(upper)
  @IsOptional()
  @IsISO4217CurrencyCode()
  currency?: string;

  @IsOptional()
  @IsIn(ORGANIZATION_TYPES)
  type?: OrganizationType;
}

export class UpdateOrganizationDto {
  @Transform(trim)
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(300)
  legalName?: string;

  @Transform(upper)
  @IsOptional()
  @IsISO31661Alpha2()
  country?: string;

  @Transform(upper)
  @IsOptional()
  @IsISO4217CurrencyCode()
  currency?: string;

  @IsOptional()
  @IsIn(ORGANIZATION_TYPES)
  type?: OrganizationType;
}
