import { replay } from '../reducer';
import type { LedgerTransaction } from '../transaction-types';
import { id, tx } from '../../../../test/support/ledger-records';
import {
  brokenRule,
  decimalText,
  exerciseTx,
  grantRecord,
  planWithPool,
  standardSchedule,
} from '../../../../test/support/incentive-records';
import { exercisable } from './holding-figures';
import { outstandingReservation } from './plan-reservation';

describe('exercise rules', () => {
  it('exercise turns reserved shares into issued ones, within what has vested', () => {
    const { s, p, poolId, log } = planWithPool();
    const v = standardSchedule();
    const g = grantRecord(p, poolId, '1200', { vestingScheduleId: v.id });
    const history = [
      ...log,
      tx('VESTING_TERMS_CREATED', { vestingSchedule: v }),
      tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: g }),
    ];
    // 2023-01-01 start: the cliff on 2024-01-01 vests 300; a month later 325.
    const state = replay(history);
    expect(decimalText(exercisable(state, state.holdings.get(g.id)!, '2023-12-31'))).toBe('0');
    expect(decimalText(exercisable(state, state.holdings.get(g.id)!, '2024-01-01'))).toBe('300');
    expect(brokenRule(() => replay([...history, exerciseTx(g.id, '301', '2024-01-01')]))).toBe(
      'insufficientShares',
    );
    const after = replay([...history, exerciseTx(g.id, '300', '2024-01-01')]);
    const sec = after.securities.get(s.id)!;
    expect([decimalText(sec.issued), decimalText(sec.reserved)]).toEqual(['300', '1700']);
    const holding = after.holdings.get(g.id)!;
    expect([decimalText(holding.exercised), holding.status]).toEqual(['300', 'active']);
    expect(decimalText(outstandingReservation(after.plans.get(p.id)!))).toBe('1700');
    const shares = [...after.shareholdings.values()];
    expect(
      shares.map((h) => [decimalText(h.quantity), h.pricePerShare, h.certificateNumber]),
    ).toEqual([['300', '0.5', 'CS-1']]);
    // Everything, once vested: the grant is exercised.
    const done = replay([
      ...history,
      exerciseTx(g.id, '300', '2024-01-01'),
      exerciseTx(g.id, '900', '2027-01-01'),
    ]);
    expect(done.holdings.get(g.id)!.status).toBe('exercised');
    expect(decimalText(done.securities.get(s.id)!.reserved)).toBe('800');
  });

  it('early exercise allows unvested shares; an expired or cancelled grant is a conflict', () => {
    const { p, poolId, log } = planWithPool();
    const v = standardSchedule();
    const early = grantRecord(p, poolId, '100', {
      vestingScheduleId: v.id,
      terms: {
        quantity: '100',
        earlyExercisable: true,
        grantDate: '2023-01-01',
        expirationDate: '2030-01-01',
      },
    });
    const history = [
      ...log,
      tx('VESTING_TERMS_CREATED', { vestingSchedule: v }),
      tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: early }),
    ];
    expect(
      brokenRule(() => replay([...history, exerciseTx(early.id, '100', '2023-02-01')])),
    ).toBeUndefined();
    expect(brokenRule(() => replay([...history, exerciseTx(early.id, '1', '2030-01-02')]))).toBe(
      'conflict',
    );
    expect(brokenRule(() => replay([...history, exerciseTx(early.id, '1', '2022-12-31')]))).toBe(
      'invalid',
    );
    const cancel = tx('TX_EQUITY_COMPENSATION_CANCELLATION', {
      holdingId: early.id,
      quantity: '100',
      returnedToPool: true,
      reason: 'terminated',
    });
    expect(
      brokenRule(() => replay([...history, cancel, exerciseTx(early.id, '1', '2024-02-01')])),
    ).toBe('conflict');
  });

  it('exercise requests: pending, then approved by the exercise or rejected, never both', () => {
    const { p, poolId, log } = planWithPool();
    const g = grantRecord(p, poolId, '100');
    const requestId = id();
    const history = [
      ...log,
      tx('TX_EQUITY_COMPENSATION_ISSUANCE', { holding: g }),
      tx('EXERCISE_REQUESTED', {
        request: {
          id: requestId,
          holdingId: g.id,
          quantity: '60',
          date: '2024-01-01',
          paymentMethod: null,
          requestedByUserId: null,
        },
      }),
    ];
    expect(replay(history).requests.get(requestId)!.status).toBe('pending');
    const approve = { ...exerciseTx(g.id, '60') } as LedgerTransaction & {
      payload: { requestId: string | null };
    };
    approve.payload = { ...approve.payload, requestId };
    const approved = replay([...history, approve]);
    expect(approved.requests.get(requestId)!.status).toBe('approved');
    const reject = tx('EXERCISE_REQUEST_REJECTED', { requestId });
    expect(brokenRule(() => replay([...history, approve, reject]))).toBe('conflict');
    expect(replay([...history, reject]).requests.get(requestId)!.status).toBe('rejected');
    // A grant cancelled (or exercised in full) leaves no request pending.
    const cancel = tx('TX_EQUITY_COMPENSATION_CANCELLATION', {
      holdingId: g.id,
      quantity: '100',
      returnedToPool: true,
      reason: 'terminated',
    });
    expect(replay([...history, cancel]).requests.get(requestId)!.status).toBe('cancelled');
    expect(replay([...history, exerciseTx(g.id, '100')]).requests.get(requestId)!.status).toBe(
      'cancelled',
    );
    expect(
      brokenRule(() =>
        replay([
          ...history,
          tx('EXERCISE_REQUESTED', {
            request: {
              id: id(),
              holdingId: g.id,
              quantity: '101',
              date: '2024-01-01',
              paymentMethod: null,
              requestedByUserId: null,
            },
          }),
        ]),
      ),
    ).toBe('insufficientShares');
  });
});
