import Decimal from 'decimal.js';
import { D } from '../decimal';
import { IsoDate, parseDate } from '../dates';
import { VestingEvent } from './vesting-events';

/** Shares vested at the end of `date`: an event dated that day has vested. */
export function vestedAsOf(events: readonly VestingEvent[], date: IsoDate): Decimal {
  parseDate(date);
  let vested = new D(0);
  for (const event of events) {
    if (event.date <= date) vested = vested.plus(event.amount);
  }
  return vested;
}

/** Shares still to vest after `date`. */
export function unvestedAsOf(events: readonly VestingEvent[], date: IsoDate): Decimal {
  parseDate(date);
  let unvested = new D(0);
  for (const event of events) {
    if (event.date > date) unvested = unvested.plus(event.amount);
  }
  return unvested;
}
