import { LedgerRuleError } from '../ledger-state';
import { replay } from '../reducer';
import { tx } from '../../../../test/support/ledger-records';
import { brokenRule, standardSchedule } from '../../../../test/support/incentive-records';

/** The rule a replay of the log breaks, with the field it names. */
function refusal(f: () => unknown): { rule: string; field?: string } | undefined {
  try {
    f();
  } catch (err) {
    if (err instanceof LedgerRuleError) return { rule: err.rule, field: err.field };
    throw err;
  }
  return undefined;
}

/**
 * The rules of vesting terms are their definitions', so the API, the imports and a replay of the
 * log refuse the same terms (not only the API's service, as before).
 */
describe('vesting terms', () => {
  it.each([
    ['a cliff longer than the schedule', { cliffPeriods: 49 }, 'cliffPeriods'],
    ['no periods', { totalPeriods: 0 }, 'totalPeriods'],
    [
      'a day of the month for daily periods',
      { periodType: 'days', vestingDayOfMonth: '15' },
      'vestingDayOfMonth',
    ],
    [
      'acceleration over 100%',
      { acceleration: { trigger: 'single', percent: '150' } },
      'acceleration.percent',
    ],
  ] as const)(
    'are refused when cap-math cannot compute them: %s (naming the term)',
    (_label, change, field) => {
      const terms = { ...standardSchedule(), ...change };
      expect(
        refusal(() => replay([tx('VESTING_TERMS_CREATED', { vestingSchedule: terms })])),
      ).toEqual({
        rule: 'invalid',
        field,
      });
      // A new version is held to the same terms.
      const v1 = standardSchedule();
      const v2 = { ...terms, version: 2, previousVersionId: v1.id };
      expect(
        brokenRule(() =>
          replay([
            tx('VESTING_TERMS_CREATED', { vestingSchedule: v1 }),
            tx('VESTING_TERMS_CREATED', { vestingSchedule: v2 }),
          ]),
        ),
      ).toBe('invalid');
    },
  );

  it('a deleted schedule is not there to delete again (notFound)', () => {
    const v = standardSchedule();
    const created = tx('VESTING_TERMS_CREATED', { vestingSchedule: v });
    const deleted = tx('VESTING_TERMS_DELETED', { vestingScheduleId: v.id });
    expect(brokenRule(() => replay([created, deleted]))).toBeUndefined();
    expect(brokenRule(() => replay([created, deleted, deleted]))).toBe('notFound');
  });
});
