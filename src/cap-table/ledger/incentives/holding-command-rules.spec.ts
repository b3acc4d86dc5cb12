import type { HoldingRecord } from '../incentive-types';
import { LedgerRuleError } from '../ledger-state';
import { replay } from '../reducer';
import { id, securityRecord, tx } from '../../../../test/support/ledger-records';
import {
  brokenRule,
  grantRecord,
  planWithPool,
  standardSchedule,
} from '../../../../test/support/incentive-records';

/**
 * The rules the holding and option routes checked in their services, now in the transactions'
 * definitions: a replay (and an import, which checks as a replay does) refuses what the API
 * refuses.
 */
describe('the holding commands’ rules, in their definitions', () => {
  const note = (): HoldingRecord => ({
    id: id(),
    memberId: 'm1',
    type: 'convertible_note',
    planId: null,
    poolId: null,
    securityId: null,
    vestingScheduleId: null,
    terms: {
      principal: '100000',
      currency: 'USD',
      interestRate: '5',
      interestType: 'simple',
      dayCount: '30/360',
      issueDate: '2024-01-01',
      maturityDate: '2026-01-01',
    },
  });

  const message = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      if (err instanceof LedgerRuleError) return err.message;
      throw err;
    }
    return undefined;
  };

  it('a note or SAFE does not convert before it was issued', () => {
    const s = securityRecord({ authorizedShares: '1000000' });
    const safe: HoldingRecord = {
      ...note(),
      type: 'safe',
      terms: { amount: '1000', currency: 'USD', safeType: 'post_money', issueDate: '2024-06-01' },
    };
    const convert = (date: string) =>
      tx(
        'TX_CONVERTIBLE_CONVERSION',
        {
          holdingId: safe.id,
          legendIds: [],
          conversion: {
            date,
            shareholdingId: id(),
            securityId: s.id,
            shares: '1000',
            conversionPrice: '1',
            method: 'price',
            conversionAmount: '1000',
            roundPricePerShare: '1',
            preMoneyValuation: null,
          },
        },
        date,
      );
    const history = [
      tx('STOCK_CLASS_CREATED', { security: s }),
      tx('TX_CONVERTIBLE_ISSUANCE', { holding: safe }, '2024-06-01'),
    ];
    const early = () => replay([...history, convert('2024-05-31')]);
    expect(brokenRule(early)).toBe('invalid');
    expect(message(early)).toBe('date must not be before the issue date 2024-06-01');
    expect(brokenRule(() => replay([...history, convert('2024-06-01')]))).toBeUndefined();
  });

  it('only notes are repaid: a SAFE is refused as such even once cancelled', () => {
    const safe: HoldingRecord = {
      ...note(),
      type: 'safe',
      terms: { amount: '1000', currency: 'USD', safeType: 'post_money', issueDate: '2024-01-01' },
    };
    const repay = () =>
      replay([
        tx('TX_CONVERTIBLE_ISSUANCE', { holding: safe }),
        tx('TX_CONVERTIBLE_CANCELLATION', { holdingId: safe.id, reason: 'cancelled' }),
        tx('TX_CONVERTIBLE_REPAYMENT', { holdingId: safe.id, amount: '1', date: '2024-02-01' }),
      ]);
    expect(brokenRule(repay)).toBe('invalid');
    expect(message(repay)).toBe('only convertible notes are repaid, not a SAFE');
  });

  it('a note’s interest terms are fixed once it has repayments; its cap is not', () => {
    const n = note();
    const history = [
      tx('TX_CONVERTIBLE_ISSUANCE', { holding: n }),
      tx(
        'TX_CONVERTIBLE_REPAYMENT',
        { holdingId: n.id, amount: '100', date: '2024-02-01' },
        '2024-02-01',
      ),
    ];
    const amend = (terms: HoldingRecord['terms']) => () =>
      replay([...history, tx('HOLDING_AMENDED', { holdingId: n.id, changes: { terms } })]);
    for (const terms of [{ interestRate: '7' }, { dayCount: 'actual/365' as const }]) {
      expect(brokenRule(amend(terms))).toBe('conflict');
    }
    expect(message(amend({ interestRate: '7' }))).toMatch(
      /the interestRate of a note with repayments cannot change/,
    );
    // Unchanged values and other terms are no change of the interest.
    expect(brokenRule(amend({ interestRate: '5', valuationCap: '8000000' }))).toBeUndefined();
  });

  it('a grant’s vesting schedule: not another plan’s, able to allocate its quantity', () => {
    const { p, poolId, log } = planWithPool();
    const other = { ...planWithPool().p, securityId: p.securityId };
    const ofOther = { ...standardSchedule(), planId: other.id };
    const whole = standardSchedule();
    const history = [
      ...log,
      tx('STOCK_PLAN_CREATED', { plan: { ...other, sharesReserved: '0' } }),
      tx('VESTING_TERMS_CREATED', { vestingSchedule: ofOther }),
      tx('VESTING_TERMS_CREATED', { vestingSchedule: whole }),
    ];
    const grant = (quantity: string, vestingScheduleId: string) =>
      tx('TX_EQUITY_COMPENSATION_ISSUANCE', {
        holding: grantRecord(p, poolId, quantity, { vestingScheduleId }),
      });
    const another = () => replay([...history, grant('100', ofOther.id)]);
    expect(brokenRule(another)).toBe('invalid');
    expect(message(another)).toBe('vestingSchedule is a schedule of another plan');
    const fractional = () => replay([...history, grant('100.5', whole.id)]);
    expect(brokenRule(fractional)).toBe('invalid');
    expect(message(fractional)).toMatch(/^vestingSchedule 4y\/1y: /);
    expect(brokenRule(() => replay([...history, grant('100', whole.id)]))).toBeUndefined();
  });
});
