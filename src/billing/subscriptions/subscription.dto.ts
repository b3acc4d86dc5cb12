import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
} from 'class-validator';
import { QueryFlag, Trim } from '../../common';

const HANDLE = /^[a-z0-9][a-z0-9_:-]*$/;

/** `POST .../subscription` and its preview. */
export class SubscriptionDto {
  /** The plan: a product handle of `GET /v1/billing/product`. */
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @Matches(HANDLE, { message: 'productHandle must be a product handle' })
  productHandle: string;

  /** One of the product's `pricePoints` (a yearly price ...); the default price when left out. */
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(100)
  @Matches(HANDLE, { message: 'pricePointHandle must be a price point handle' })
  pricePointHandle?: string;

  /** A payment profile of the organization's entity (our id); the customer's default otherwise. */
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  paymentProfileId?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  couponCodes?: string[];
}

export class CancelSubscriptionQuery {
  /** Cancel now rather than at the end of the current period. Default false. */
  @QueryFlag()
  immediate?: boolean;
}
