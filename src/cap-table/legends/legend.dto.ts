import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { Omittable, Trim } from '../../common';
import { MAX_LEGEND_NAME_LENGTH, MAX_LEGEND_TEXT_LENGTH } from './legend-bounds';

/** A legend template (OCF StockLegendTemplate). */
export class LegendDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_LEGEND_NAME_LENGTH)
  name: string;

  /** The wording printed on certificates. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_LEGEND_TEXT_LENGTH)
  text: string;

  /** Put on new shareholdings that name no legends; default false. */
  @IsOptional()
  @IsBoolean()
  isDefault?: boolean;
}

/** PATCH: any of the fields; an absent one is kept, none may be null (400). */
export class UpdateLegendDto {
  @Trim()
  @Omittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_LEGEND_NAME_LENGTH)
  name?: string;

  @Omittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_LEGEND_TEXT_LENGTH)
  text?: string;

  @Omittable()
  @IsBoolean()
  isDefault?: boolean;
}
