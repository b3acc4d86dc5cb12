import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Which consumer has handled which event: the idempotency key of every queue consumer. */
@Entity('processed_event')
export class ProcessedEvent {
  @PrimaryColumn({ type: 'varchar', length: 60 })
  consumer: string;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  eventId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  processedAt: Date;
}
