import { ApiProperty } from '@nestjs/swagger';

/** A card (or bank account) on file: what to show of it. */
export class PaymentProfileView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  /** `visa`, `master` ... or the bank's name. */
  brand: string;
  last4: string;
  expirationMonth: number | null;
  expirationYear: number | null;
  /** Charged for the entity's subscriptions. */
  isDefault: boolean;
}
