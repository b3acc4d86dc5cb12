import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';

export const REDEMPTION_STATES = ['pending', 'applied', 'reversed'] as const;
export type RedemptionState = (typeof REDEMPTION_STATES)[number];

/**
 * An organization entity's credit sent to its invoices. Reserved first (its `redemption` entry
 * takes the amount out of the balance, in a short transaction under the account's lock), then
 * sent to the billing provider outside any transaction with its id as the uniqueness token:
 * `applied` once the provider took it, `reversed` (a reversing entry gives the amount back) when
 * it refused, `pending` until one or the other is known (the credit-redemption queue sends it
 * again, with the same id, to the same subscription).
 */
@Entity('credit_redemption')
@Index('credit_redemption_pending_idx', ['entityId', 'created'], { where: `state = 'pending'` })
export class CreditRedemption {
  /** Also the id of its `redemption` entry and its movement, and the provider's token. */
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  entityId: string;

  /** Our id of the subscription it goes to (billing's): a retry goes there too. */
  @Column({ type: 'uuid' })
  subscriptionId: string;

  /** Positive, two decimals. */
  @Column({ type: 'numeric', precision: 16, scale: 2 })
  amount: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 20, default: 'pending' })
  state: RedemptionState;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @Column({ type: 'timestamptz', nullable: true })
  settledAt: Date | null;

  @ForeignKey('LegalEntity', 'entity_id')
  private readonly entity?: unknown;

  @ForeignKey('BillingSubscription', 'subscription_id')
  private readonly subscription?: unknown;
}
