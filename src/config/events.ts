import { Transform } from 'class-transformer';
import { IsInt, Min } from 'class-validator';
import { configSlice } from './slice';
import { integer, toInt } from './variable-rules';

/** The outbox relay and the background jobs it feeds. */
export class EventsConfig {
  @Transform(toInt)
  @IsInt(integer(0))
  @Min(0, integer(0))
  OUTBOX_RELAY_INTERVAL_MS = 500;

  /**
   * An event relayed this long ago whose processed marker a queue lacks is relayed to it again
   * (its job lost with Redis data); 0: never.
   */
  @Transform(toInt)
  @IsInt(integer(0))
  @Min(0, integer(0))
  OUTBOX_RERELAY_AFTER_MS = 300_000;

  @Transform(toInt)
  @IsInt(integer(1))
  @Min(1, integer(1))
  QUEUE_JOB_ATTEMPTS = 5;
}

export const eventsSlice = configSlice({ name: 'events', schema: EventsConfig });
