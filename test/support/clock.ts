import { Clock } from '../../src/common';
import type { TestAppOptions } from './app';

/**
 * The app's clock, moved by the test instead of waiting: it runs with real time from where it was
 * put (so rows written one after another still get increasing times) until `freeze`, and
 * `set`/`advance` move it. Given to the app through `createTestApp({ overrides: clock.override })`.
 */
export class TestClock extends Clock {
  /** Added to the real time while running; the frozen reading while frozen. */
  private offsetMs = 0;
  private frozenAt: number | null = null;

  constructor(start?: Date | string | number) {
    super();
    if (start !== undefined) this.set(start);
  }

  override nowMs(): number {
    return this.frozenAt ?? Date.now() + this.offsetMs;
  }

  /** Puts the clock at `at` (a Date, an ISO text or epoch milliseconds). */
  set(at: Date | string | number): this {
    const ms = new Date(at).getTime();
    if (Number.isNaN(ms)) throw new Error(`not a time: ${String(at)}`);
    if (this.frozenAt !== null) this.frozenAt = ms;
    else this.offsetMs = ms - Date.now();
    return this;
  }

  /** Moves the clock `ms` forward (or back, negative); answers the new time. */
  advance(ms: number): Date {
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.offsetMs += ms;
    return this.now();
  }

  /** Stops the clock (at `at`, or where it is): every reading answers the same time. */
  freeze(at?: Date | string | number): this {
    this.frozenAt = this.nowMs();
    if (at !== undefined) this.set(at);
    return this;
  }

  /** Lets it run with real time again, from where it stands. */
  resume(): this {
    if (this.frozenAt !== null) this.offsetMs = this.frozenAt - Date.now();
    this.frozenAt = null;
    return this;
  }

  /** Back to the real time, running. */
  reset(): this {
    this.frozenAt = null;
    this.offsetMs = 0;
    return this;
  }

  /** The `overrides` entry that makes the app read this clock. */
  get override(): NonNullable<TestAppOptions['overrides']> {
    return [[Clock, this]];
  }
}

/**
 * For an app made without `overrides` (a shared fixture): its clock reads `clock` from now on,
 * until `restore`. Answers the TestClock with `restore` added.
 */
export function takeClock(
  app: { get<T>(token: unknown): T },
  clock = new TestClock(),
): TestClock & { restore(): void } {
  const spy = jest.spyOn(app.get<Clock>(Clock), 'nowMs').mockImplementation(() => clock.nowMs());
  return Object.assign(clock, { restore: () => spy.mockRestore() });
}
