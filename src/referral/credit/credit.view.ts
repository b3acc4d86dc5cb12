import { ApiProperty } from '@nestjs/swagger';
import { CREDIT_ENTRY_KINDS, CreditEntry, CreditEntryKind } from '../store/credit-entry.entity';

/** A transfer of credit between two entities. */
export class CreditTransferView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ format: 'uuid' })
  fromEntity: string;
  @ApiProperty({ format: 'uuid' })
  toEntity: string;
  /** Two decimals. */
  @ApiProperty({ example: '10.00' })
  amount: string;
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ format: 'date-time' })
  created: string;
}

/** One movement of an entity's credit. */
export class CreditEntryView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  /**
   * `grant` (a revealed reward card), `transfer_in`, `transfer_out`, `redemption` (applied to the
   * organization's invoices), `redemption_reversal` (a redemption the billing provider refused,
   * given back), `expiry`.
   */
  @ApiProperty({ enum: CREDIT_ENTRY_KINDS })
  kind: CreditEntryKind;
  /** Signed, two decimals: what the movement added to the balance. */
  @ApiProperty({ example: '-10.00' })
  amount: string;
  @ApiProperty({ example: 'USD' })
  currency: string;
  /** The transfer (both sides share it), the reward card or the redemption (and its reversal). */
  @ApiProperty({ format: 'uuid' })
  movement: string;
  /** A transfer's other entity. */
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  counterpartyEntity: string | null;
  @ApiProperty({ format: 'date-time' })
  created: string;
}

export const toCreditEntryView = (e: CreditEntry): CreditEntryView => ({
  id: e.id,
  kind: e.kind,
  amount: e.amount,
  currency: e.currency,
  movement: e.movementId,
  counterpartyEntity: e.counterpartyEntityId,
  created: e.created.toISOString(),
});
