import { ApiPropertyOptional } from '@nestjs/swagger';
import { Omittable, Trim, TrimUpper } from '../../common';
import {
  IsIn,
  IsISO31661Alpha2,
  IsISO4217CurrencyCode,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import {
  DOCUMENT_STORES,
  DocumentStore,
  ORGANIZATION_TYPES,
  OrganizationType,
} from './organization.entity';

const STORE =
  '`suite` (the productivity-suite store) only while it is configured (MICROSOFT_*), else 400.';

export class CreateOrganizationDto {
  /** Display name. */
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  /** Registered legal name, when it differs. */
  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(300)
  legalName?: string;

  /** ISO 3166-1 alpha-2 country of incorporation. */
  @TrimUpper()
  @IsOptional()
  @IsISO31661Alpha2()
  country?: string;

  /** ISO 4217 currency of the cap table; default USD. */
  @TrimUpper()
  @IsOptional()
  @IsISO4217CurrencyCode()
  currency?: string;

  @IsOptional()
  @IsIn(ORGANIZATION_TYPES)
  type?: OrganizationType;

  /**
   * Where its documents live. Default: `suite` when the productivity-suite store is configured and
   * NODE_ENV=production, else `dataRoom`.
   */
  @ApiPropertyOptional({ enum: DOCUMENT_STORES, description: STORE })
  @IsOptional()
  @IsIn(DOCUMENT_STORES)
  documentStore?: DocumentStore;
}

/** Any subset of the creation fields; null clears legalName or country, never the others (400). */
export class UpdateOrganizationDto {
  @Trim()
  @Omittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(300)
  legalName?: string | null;

  @TrimUpper()
  @IsOptional()
  @IsISO31661Alpha2()
  country?: string | null;

  @TrimUpper()
  @Omittable()
  @IsISO4217CurrencyCode()
  currency?: string;

  @Omittable()
  @IsIn(ORGANIZATION_TYPES)
  type?: OrganizationType;

  /** Changes only while the organization has no document or folder (else 409). */
  @ApiPropertyOptional({ enum: DOCUMENT_STORES, description: STORE })
  @Omittable()
  @IsIn(DOCUMENT_STORES)
  documentStore?: DocumentStore;
}
