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

  /**
   * How long a worker's lock on its active job lasts (renewed at half of it while the job runs),
   * and how often each instance looks for jobs whose lock lapsed: a job of an instance killed
   * mid-run is taken up by another within about twice this (Bull's lockDuration and
   * stalledInterval).
   */
  @Transform(toInt)
  @IsInt(integer(1000))
  @Min(1000, integer(1000))
  QUEUE_LOCK_MS = 30_000;
}

export const eventsSlice = configSlice({ name: 'events', schema: EventsConfig });
