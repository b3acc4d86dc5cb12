import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { Omittable, Trim } from '../../common';

/** A legend template (OCF StockLegendTemplate). */
export class LegendDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  /** The wording printed on certificates. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(20000)
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
  @MaxLength(200)
  name?: string;

  @Omittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(20000)
  text?: string;

  @Omittable()
  @IsBoolean()
  isDefault?: boolean;
}
