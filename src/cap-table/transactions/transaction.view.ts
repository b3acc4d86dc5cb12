import { ApiProperty } from '@nestjs/swagger';
import { DateView, TimestampView, UuidView } from '../view-fields';

/** One transaction of the equity log: recorded once, never changed or deleted. */
export class TransactionView {
  @UuidView()
  id: string;
  /** Its place in the organization's log (1, 2, ...): the recording order. */
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  sequence: number;
  /** An Open Cap Format transaction type (`TX_STOCK_ISSUANCE` ...) or a record type of this service. */
  @ApiProperty({ example: 'TX_STOCK_ISSUANCE' })
  type: string;
  /** The date the transaction takes effect (may differ from when it was recorded). */
  @DateView()
  effectiveDate: string;
  @TimestampView()
  recordedAt: string;
  /** The user who made the change; null for changes made by the service itself. */
  @UuidView({ nullable: true })
  actor: string | null;
  /** What the transaction records; its fields depend on `type`. */
  @ApiProperty({ type: 'object', additionalProperties: true })
  payload: Record<string, unknown>;
}
