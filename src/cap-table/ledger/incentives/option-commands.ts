import { compareDates } from '../../../../libs/cap-math';
import { isGrantType } from '../incentive-types';
import { HoldingState, LedgerRuleError, LedgerState } from '../ledger-state';
import type { CommandContext } from '../transactions/definition';

/** What the option commands share: the option their path names, and the dates they take. */

/** Where the deprecated-style paths address an option: `/v1/plan/:plan/pool/:pool/option/:option`. */
export interface OptionPath {
  plan: string;
  pool: string;
  option: string;
}

/** The locked option the path names: a grant of that plan and pool, else 404. */
export function optionAt(state: LedgerState, path: OptionPath): HoldingState {
  const option = state.holdings.get(path.option);
  if (
    !option ||
    !isGrantType(option.type) ||
    option.planId !== path.plan ||
    option.poolId !== path.pool
  ) {
    throw new LedgerRuleError('notFound', 'no such option in this plan and pool');
  }
  return option;
}

/**
 * Exercise dates are today or earlier: vesting is checked as of the date, so a later date would
 * let a holder exercise (or ask for) shares that have not vested yet.
 */
export function notAfterToday(date: string, context: CommandContext): string {
  if (compareDates(date, context.today) > 0) {
    throw new LedgerRuleError('invalid', `date must not be after today (${context.today})`, 'date');
  }
  return date;
}
