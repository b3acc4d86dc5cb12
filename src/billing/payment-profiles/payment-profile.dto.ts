import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Trim } from '../../common';

/** `POST /v1/entity/:entity/payment/profile`. */
export class CreatePaymentProfileDto {
  /** The token the provider's JS gave for the card (or bank account) entered. */
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  token: string;
}

/** `PUT /v1/entity/:entity/payment/profile/:profile`. */
export class UpdatePaymentProfileDto {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(12)
  expirationMonth?: number;

  @IsOptional()
  @IsInt()
  @Min(2000)
  @Max(2100)
  expirationYear?: number;

  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  firstName?: string;

  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  lastName?: string;
}
