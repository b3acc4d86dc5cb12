import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Trim } from '../../common';

/** `POST /v1/promo/validate`. */
export class ValidatePromoDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  code: string;
}
