import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WebhookDelivery } from './webhook-delivery.entity';

/** The longest part of a response body kept with an attempt. */
export const RESPONSE_BODY_BYTES = 1024;

/** One HTTP attempt of a delivery, as the delivery history shows it. */
@Entity('webhook_attempt')
// The history of an endpoint, newest first.
@Index('webhook_attempt_endpoint_idx', ['endpointId', 'timestamp', 'id'])
export class WebhookAttempt {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 36 })
  deliveryId: string;

  @Column({ type: 'varchar', length: 35 })
  endpointId: string;

  @Column({ type: 'varchar', length: 40 })
  eventId: string;

  @Column({ type: 'varchar', length: 100 })
  eventType: string;

  /** 1 for the first attempt of its delivery. */
  @Column({ type: 'int' })
  attempt: number;

  /** When the attempt was sent. */
  @Column({ type: 'timestamptz' })
  timestamp: Date;

  /** The status received; 0 when no response came (refused URL, network error, timeout). */
  @Column({ type: 'int' })
  httpStatus: number;

  /** Milliseconds from sending to the end of the response (or the failure). */
  @Column({ type: 'int' })
  responseTime: number;

  /** The first RESPONSE_BODY_BYTES of the response body, as text. */
  @Column({ type: 'text', nullable: true })
  responseBody: string | null;

  /** Why no response came, when none did. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @ManyToOne(() => WebhookDelivery, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id' })
  private readonly delivery?: WebhookDelivery;
}
