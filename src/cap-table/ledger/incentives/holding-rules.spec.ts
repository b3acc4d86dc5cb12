import type { HoldingRecord } from '../incentive-types';
import { replay } from '../reducer';
import { id, securityRecord, tx } from '../../../../test/support/ledger-records';
import {
  brokenRule,
  decimalText,
  grantRecord,
  planWithPool,
  standardSchedule,
} from '../../../../test/support/incentive-records';

describe('convertibles and vesting terms', () => {
  it('a note is repaid interest first, then principal; never more than is owed', () => {
    const note: HoldingRecord = {
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
    };
    const issued = tx('TX_CONVERTIBLE_ISSUANCE', { holding: note });
    const repay = (amount: string, date: string) =>
      tx('TX_CONVERTIBLE_REPAYMENT', { holdingId: note.id, amount, date }, date);
    // A year at 5% on 30/360: 5,000 of interest.
    const first = replay([issued, repay('15000', '2025-01-01')]).holdings.get(note.id)!;
    expect([
      decimalText(first.interestPaid),
      decimalText(first.principalOutstanding),
      decimalText(first.accruedUnpaid),
    ]).toEqual(['5000', '90000', '0']);
    expect(brokenRule(() => replay([issued, repay('105000.01', '2025-01-01')]))).toBe('invalid');
    const all = replay([issued, repay('105000', '2025-01-01')]).holdings.get(note.id)!;
    expect(all.status).toBe('repaid');
    expect(
      brokenRule(() => replay([issued, repay('1', '2025-01-01'), repay('1', '2024-06-01')])),
    ).toBe('invalid');
  });

  it('conversion issues shares from the unissued balance and ends the convertible', () => {
    const s = securityRecord({ authorizedShares: '1000' });
    const safe: HoldingRecord = {
      id: id(),
      memberId: 'm9',
      type: 'safe',
      planId: null,
      poolId: null,
      securityId: null,
      vestingScheduleId: null,
      terms: { amount: '100000', currency: 'USD', safeType: 'post_money', issueDate: '2024-01-01' },
    };
    const convert = (shares: string) =>
      tx('TX_CONVERTIBLE_CONVERSION', {
        holdingId: safe.id,
        legendIds: [],
        conversion: {
          date: '2025-01-01',
          shareholdingId: id(),
          securityId: s.id,
          shares,
          conversionPrice: '100',
          method: 'price',
          conversionAmount: '100000',
          roundPricePerShare: '100',
          preMoneyValuation: null,
        },
      });
    const history = [
      tx('STOCK_CLASS_CREATED', { security: s }),
      tx('TX_CONVERTIBLE_ISSUANCE', { holding: safe }),
    ];
    expect(brokenRule(() => replay([...history, convert('1001')]))).toBe('insufficientShares');
    const state = replay([...history, convert('1000')]);
    expect(state.holdings.get(safe.id)!.status).toBe('converted');
    expect(decimalText(state.securities.get(s.id)!.issued)).toBe('1000');
    expect(brokenRule(() => replay([...history, convert('1'), convert('1')]))).toBe('conflict');
  });

  it('vesting terms are versioned: only the latest version can be replaced; used terms cannot be deleted', () => {
    const { p, poolId, log } = planWithPool();
    const v1 = standardSchedule();
    const v2 = { ...standardSchedule(), version: 2, previousVersionId: v1.id };
    const g = grantRecord(p, poolId, '100', { vestingScheduleId: v1.id });
    const history = [
      ...log,
      tx('VESTING_TERMS_CREATED', { vestingSchedule: v1 }),
      tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: g }),
      tx('VESTING_TERMS_CREATED', { vestingSchedule: v2 }),
    ];
    const state = replay(history);
    expect(state.schedules.get(v1.id)!.supersededById).toBe(v2.id);
    expect(state.holdings.get(g.id)!.vestingScheduleId).toBe(v1.id);
    const v3 = { ...standardSchedule(), version: 2, previousVersionId: v1.id };
    expect(
      brokenRule(() => replay([...history, tx('VESTING_TERMS_CREATED', { vestingSchedule: v3 })])),
    ).toBe('conflict');
    expect(
      brokenRule(() =>
        replay([...history, tx('VESTING_TERMS_DELETED', { vestingScheduleId: v1.id })]),
      ),
    ).toBe('conflict');
    expect(
      brokenRule(() =>
        replay([...history, tx('VESTING_TERMS_DELETED', { vestingScheduleId: v2.id })]),
      ),
    ).toBeUndefined();
  });
});
