import { CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Which consumer has handled which event: the idempotency key of every queue consumer, named after
 * its queue, and how the re-relay tells a queue that consumed an event from one whose job was lost.
 */
@Entity('processed_event')
// The daily clean-up by age.
@Index('processed_event_processed_at_idx', ['processedAt'])
export class ProcessedEvent {
  @PrimaryColumn({ type: 'varchar', length: 60 })
  consumer: string;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  eventId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  processedAt: Date;
}
