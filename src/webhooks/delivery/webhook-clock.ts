import { Injectable } from '@nestjs/common';

/**
 * The time every delivery decision is made by (attempt times, retry schedule, failing streaks,
 * leases): one seam, so the schedule's hours and days can be tested without waiting them out.
 */
@Injectable()
export class WebhookClock {
  now(): Date {
    return new Date();
  }
}
