import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  ManyToOne,
  JoinColumn,
  PrimaryColumn,
} from 'typeorm';
import { WebhookEndpoint } from '../webhook-endpoint.entity';

/** `pending` while attempts are left; then `succeeded` or `failed`. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event to send to one endpoint, with its retry state: kept in PostgreSQL so a lost Redis
 * loses no delivery (the queue only wakes the worker). `body` is the exact JSON sent on every
 * attempt; each attempt signs it with a fresh timestamp.
 */
@Entity('webhook_delivery')
// The worker's next delivery of an endpoint: the oldest event due.
@Index('webhook_delivery_due_idx', ['endpointId', 'eventCreated', 'sequence'], {
  where: `status = 'pending'`,
})
@Index('webhook_delivery_sweep_idx', ['nextAttemptAt'], { where: `status = 'pending'` })
@Index('webhook_delivery_last_idx', ['endpointId', 'lastAttemptAt'])
export class WebhookDelivery {
  /** `whd_` + 32 lowercase hex characters. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** Ties deliveries of events written at the same instant, in the order they were made. */
  @Column({ type: 'bigint', generated: 'increment' })
  sequence: string;

  @Column({ type: 'varchar', length: 35 })
  endpointId: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 40 })
  eventId: string;

  @Column({ type: 'varchar', length: 100 })
  eventType: string;

  @Column({ type: 'timestamptz' })
  eventCreated: Date;

  @Column({ type: 'text' })
  body: string;

  /** A test event: one attempt, no retries, no effect on the endpoint's health. */
  @Column({ type: 'boolean', default: false })
  test: boolean;

  @Column({ type: 'varchar', length: 20 })
  status: DeliveryStatus;

  /** Attempts made so far. */
  @Column({ type: 'int', default: 0 })
  attempts: number;

  /** When the next attempt is due; null once the delivery has ended. */
  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null;

  @Column({ type: 'int', nullable: true })
  lastHttpStatus: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ManyToOne(() => WebhookEndpoint, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id' })
  private readonly endpoint?: WebhookEndpoint;
}
