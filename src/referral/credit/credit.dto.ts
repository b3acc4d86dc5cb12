import { IsUUID } from 'class-validator';
import { DecimalField } from '../../common';

/** `POST /v1/credit/transfer`. */
export class CreditTransferDto {
  /** The entity paying: the caller's personal entity, or an organization's they bill for. */
  @IsUUID('all', { message: 'fromEntity must be a UUID' })
  fromEntity: string;

  /** The entity receiving: a user's personal entity or an organization's entity. */
  @IsUUID('all', { message: 'toEntity must be a UUID' })
  toEntity: string;

  /** Positive, at most two decimals, in BILLING_CURRENCY. */
  @DecimalField({ money: true, positive: true, example: '10.00' })
  amount: string;
}
