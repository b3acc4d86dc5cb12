import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../database';
import type { SubscriptionState } from '../provider/wire';
import { PROVIDER_ID } from './provider-id';

/** States in which a subscription is over; any other is live. */
export const ENDED_STATES: readonly SubscriptionState[] = ['canceled', 'expired'];

export const isLive = (state: string) => !ENDED_STATES.includes(state as SubscriptionState);

/** An organization's subscription at the billing provider, as we last saw it. */
@Entity('billing_subscription')
@Index('billing_subscription_org_idx', ['organizationId', 'created'])
// One live subscription per organization, whatever two requests do at once.
@Index('billing_subscription_one_live_idx', ['organizationId'], {
  unique: true,
  where: `state NOT IN ('canceled', 'expired')`,
})
export class BillingSubscription {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  /** The entity billed (the organization's). */
  @Column({ type: 'uuid' })
  entityId: string;

  @Column({ type: 'bigint', unique: true, transformer: PROVIDER_ID })
  providerId: number;

  @Column({ type: 'varchar', length: 100 })
  productHandle: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  pricePointHandle: string | null;

  /**
   * The provider's id of the payment profile it is charged to (from the provider's answers, else
   * the one asked for or the entity's default at signup); null when unknown.
   */
  @Column({ type: 'bigint', nullable: true, transformer: PROVIDER_ID })
  paymentProfileProviderId: number | null;

  /** In the provider's spelling (`active`, `past_due`, `canceled` ...). */
  @Column({ type: 'varchar', length: 30 })
  state: string;

  @Column({ type: 'timestamptz', nullable: true })
  currentPeriodEndsAt: Date | null;

  @Column({ type: 'boolean', default: false })
  cancelAtPeriodEnd: boolean;

  /** The provider's `updated_at` of the view we hold: an older webhook does not overwrite it. */
  @Column({ type: 'timestamptz' })
  providerUpdatedAt: Date;

  /** `subscription.cancelled` was recorded (it is recorded once). */
  @Column({ type: 'boolean', default: false })
  cancellationRecorded: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
