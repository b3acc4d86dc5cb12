import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A queue an event type is relayed to, written by the migrations only (the code's
 * `@OnDomainEvent` declarations, held equal by a test): every instance of a rolling upgrade
 * routes by the same rows, and relays only the types whose every queue it consumes.
 */
@Entity('event_route')
export class EventRoute {
  @PrimaryColumn({ type: 'varchar', length: 100, primaryKeyConstraintName: 'PK_event_route' })
  eventType: string;

  @PrimaryColumn({ type: 'varchar', length: 60, primaryKeyConstraintName: 'PK_event_route' })
  queue: string;

  /**
   * When the route was migrated in: the re-relay sends a queue only the events relayed after it
   * (an event relayed before its queue existed was never that queue's).
   */
  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;
}
