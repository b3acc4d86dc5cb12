import { Injectable } from '@nestjs/common';

/**
 * The one source of the current time in src/ (an eslint rule refuses `new Date()` and
 * `Date.now()` elsewhere). Injected wherever a decision depends on the time (expiries, retry
 * schedules, cool-downs, retention cut-offs, "today"), so a test replaces it with one it moves
 * (test/support/clock.ts) and waits out no hour, day or cool-down.
 */
@Injectable()
export class Clock {
  /** Milliseconds since the epoch: the one reading every other method derives from. */
  nowMs(): number {
    return Date.now();
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Today's date in UTC, `YYYY-MM-DD` (the cap table's dates are UTC calendar days). */
  today(): string {
    return this.now().toISOString().slice(0, 10);
  }

  /** The time `ms` from now (an expiry). */
  after(ms: number): Date {
    return new Date(this.nowMs() + ms);
  }

  /** The time `ms` ago (a cut-off). */
  before(ms: number): Date {
    return new Date(this.nowMs() - ms);
  }

  /** Whole seconds since the epoch (signature timestamps). */
  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }
}
