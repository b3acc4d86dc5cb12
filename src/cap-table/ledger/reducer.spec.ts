import fc from 'fast-check';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { LedgerRuleError, LedgerState } from './ledger-state';
import { replayAsOf } from '../position/as-of';
import { replay } from './reducer';
import type { LedgerTransaction } from './transaction-types';
import {
  classCreated,
  id,
  securityRecord,
  stockIssuance,
  tx,
} from '../../../test/support/ledger-records';

const security = securityRecord;

const created = classCreated;
const issuance = stockIssuance;
const transfer = (sourceId: string, quantity: string, toMemberId = 'm2', date = '2024-02-01') => {
  const destinationId = id();
  return {
    destinationId,
    tx: tx(
      'TX_STOCK_TRANSFER',
      { sourceId, destinationId, toMemberId, quantity, date, pricePerShare: null },
      date,
    ),
  };
};

const ranges = (state: LedgerState, holdingId: string) =>
  (state.blocks.get(holdingId) ?? []).map(
    (b) => `${toDecimalString(b.from)}-${toDecimalString(b.to)}`,
  );

const rule = (work: () => unknown) => {
  try {
    work();
  } catch (err) {
    if (err instanceof LedgerRuleError) return err.rule;
    throw err;
  }
  return 'none';
};

describe('the ledger reducer', () => {
  it('issues shares with certificate numbers and share numbers of the class, within authorized', () => {
    const s = security();
    const a = issuance(s.id, '600');
    const b = issuance(s.id, '400');
    const state = replay([created(s), a.tx, b.tx]);
    expect(state.shareholdings.get(a.shareholdingId)).toMatchObject({
      certificateNumber: 'CS-1',
      status: 'active',
    });
    expect(state.shareholdings.get(b.shareholdingId)?.certificateNumber).toBe('CS-2');
    expect(ranges(state, a.shareholdingId)).toEqual(['1-600']);
    expect(ranges(state, b.shareholdingId)).toEqual(['601-1000']);
    expect(toDecimalString(state.securities.get(s.id)!.issued)).toBe('1000');
    expect(rule(() => replay([created(s), a.tx, b.tx, issuance(s.id, '1').tx]))).toBe(
      'insufficientShares',
    );
  });

  it('transfers the lowest-numbered shares; the balance stays with the source', () => {
    const s = security();
    const a = issuance(s.id, '1000');
    const t1 = transfer(a.shareholdingId, '300');
    const state = replay([created(s), a.tx, t1.tx]);
    expect(toDecimalString(state.shareholdings.get(a.shareholdingId)!.quantity)).toBe('700');
    expect(state.shareholdings.get(t1.destinationId)).toMatchObject({
      memberId: 'm2',
      certificateNumber: 'CS-2',
      issueDate: '2024-02-01',
    });
    expect(ranges(state, t1.destinationId)).toEqual(['1-300']);
    expect(ranges(state, a.shareholdingId)).toEqual(['301-1000']);
    // All of it: the source is "transferred".
    const t2 = transfer(a.shareholdingId, '700', 'm3');
    const all = replay([created(s), a.tx, t1.tx, t2.tx]);
    expect(all.shareholdings.get(a.shareholdingId)?.status).toBe('transferred');
    expect(ranges(all, t2.destinationId)).toEqual(['301-1000']);
    expect(rule(() => replay([created(s), a.tx, transfer(a.shareholdingId, '1001').tx]))).toBe(
      'insufficientShares',
    );
  });

  it('returns voided shares to the unissued balance and retires their numbers', () => {
    const s = security({ authorizedShares: '100' });
    const a = issuance(s.id, '100');
    const voided = tx('TX_STOCK_CANCELLATION', {
      shareholdingId: a.shareholdingId,
      quantity: '100',
      reason: 'voided',
    });
    const b = issuance(s.id, '100');
    const state = replay([created(s), a.tx, voided, b.tx]);
    expect(state.shareholdings.get(a.shareholdingId)?.status).toBe('voided');
    expect(ranges(state, a.shareholdingId)).toEqual([]);
    expect(ranges(state, b.shareholdingId)).toEqual(['101-200']);
    expect(rule(() => replay([created(s), a.tx, voided, voided]))).toBe('conflict');
    expect(rule(() => replay([created(s), a.tx, voided, transfer(a.shareholdingId, '1').tx]))).toBe(
      'conflict',
    );
  });

  it('corrects a quantity: more shares are numbered anew, fewer leave from the top', () => {
    const s = security();
    const a = issuance(s.id, '100');
    const b = issuance(s.id, '100');
    const more = tx('STOCK_ISSUANCE_AMENDED', {
      shareholdingId: a.shareholdingId,
      changes: { quantity: '150' },
    });
    const fewer = tx('STOCK_ISSUANCE_AMENDED', {
      shareholdingId: a.shareholdingId,
      changes: { quantity: '120' },
    });
    const state = replay([created(s), a.tx, b.tx, more, fewer]);
    expect(ranges(state, a.shareholdingId)).toEqual(['1-100', '201-220']);
    expect(toDecimalString(state.securities.get(s.id)!.issued)).toBe('220');
    const tooMany = tx('STOCK_ISSUANCE_AMENDED', {
      shareholdingId: a.shareholdingId,
      changes: { quantity: '1000' },
    });
    expect(rule(() => replay([created(s), a.tx, b.tx, tooMany]))).toBe('insufficientShares');
  });

  it('never authorizes fewer shares than are issued, and deletes only an empty class', () => {
    const s = security();
    const a = issuance(s.id, '500');
    const adjust = (to: string) =>
      tx('TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT', {
        securityId: s.id,
        previousSharesAuthorized: '1000',
        newSharesAuthorized: to,
        reason: null,
      });
    expect(rule(() => replay([created(s), a.tx, adjust('499')]))).toBe('insufficientShares');
    expect(
      toDecimalString(replay([created(s), a.tx, adjust('500')]).securities.get(s.id)!.authorized),
    ).toBe('500');
    const remove = tx('STOCK_CLASS_DELETED', { securityId: s.id });
    expect(rule(() => replay([created(s), a.tx, remove]))).toBe('conflict');
    expect(replay([created(s), remove]).securities.get(s.id)?.deleted).toBe(true);
    expect(rule(() => replay([created(s), remove, issuance(s.id, '1').tx]))).toBe('conflict');
  });

  it('keeps legends that active shareholdings carry', () => {
    const s = security();
    const legend = { id: id(), name: 'Rule 144', text: 'Restricted', isDefault: false };
    const shareholdingId = id();
    const carrying = tx('TX_STOCK_ISSUANCE', {
      shareholdingId,
      securityId: s.id,
      memberId: 'm1',
      quantity: '10',
      pricePerShare: null,
      issueDate: '2024-01-01',
      legendIds: [legend.id],
      consideration: null,
    });
    const history = [created(s), tx('STOCK_LEGEND_TEMPLATE_CREATED', { legend }), carrying];
    const remove = tx('STOCK_LEGEND_TEMPLATE_DELETED', { legendId: legend.id });
    expect(rule(() => replay([...history, remove]))).toBe('conflict');
    const voided = tx('TX_STOCK_CANCELLATION', {
      shareholdingId,
      quantity: '10',
      reason: 'voided',
    });
    expect(replay([...history, voided, remove]).legends.get(legend.id)?.deleted).toBe(true);
    expect(rule(() => replay([created(s), { ...carrying, id: id() }]))).toBe('notFound');
  });

  it('replays as of a date: what was effective then, with the definitions of all time', () => {
    const s = security();
    const a = issuance(s.id, '1000', 'm1', '2024-01-15');
    const t = transfer(a.shareholdingId, '400', 'm2', '2024-03-01');
    // The class was recorded later than the history it describes (a migration of old records).
    const log = [{ ...created(s), effectiveDate: '2025-06-01' }, a.tx, t.tx];
    const early = replayAsOf(log, '2024-02-01');
    expect(toDecimalString(early.shareholdings.get(a.shareholdingId)!.quantity)).toBe('1000');
    expect(early.shareholdings.has(t.destinationId)).toBe(false);
    const before = replayAsOf(log, '2024-01-01');
    expect(before.shareholdings.size).toBe(0);
    expect(before.securities.has(s.id)).toBe(true);
  });
  // The as-of rule's corrected issue dates: position/as-of.spec.ts.
});

describe('the ledger reducer, under random histories', () => {
  type Step =
    | { kind: 'issue'; quantity: number }
    | { kind: 'transfer'; from: number; quantity: number }
    | { kind: 'void'; holding: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('issue' as const), quantity: fc.integer({ min: 1, max: 400 }) }),
    fc.record({
      kind: fc.constant('transfer' as const),
      from: fc.nat(),
      quantity: fc.integer({ min: 1, max: 300 }),
    }),
    fc.record({ kind: fc.constant('void' as const), holding: fc.nat() }),
  );

  it('conserves shares: active holdings add up to issued, blocks number them once, nothing exceeds authorized', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const s = security({ authorizedShares: '5000' });
        const log: LedgerTransaction[] = [created(s)];
        const holdings: string[] = [];
        for (const st of steps) {
          let candidate: LedgerTransaction;
          if (st.kind === 'issue') {
            const i = issuance(s.id, String(st.quantity));
            candidate = i.tx;
            holdings.push(i.shareholdingId);
          } else if (!holdings.length) continue;
          else if (st.kind === 'transfer') {
            const t = transfer(holdings[st.from % holdings.length], String(st.quantity));
            candidate = t.tx;
            holdings.push(t.destinationId);
          } else {
            const h = holdings[st.holding % holdings.length];
            candidate = tx('TX_STOCK_CANCELLATION', {
              shareholdingId: h,
              quantity: '0',
              reason: 'voided',
            });
          }
          // A write applies the transaction only when the state takes it.
          try {
            replay([...log, candidate]);
            log.push(candidate);
          } catch (err) {
            if (!(err instanceof LedgerRuleError)) throw err;
          }
        }
        const state = replay(log);
        const issued = state.securities.get(s.id)!.issued;
        const active = [...state.shareholdings.values()].filter((h) => h.status === 'active');
        const held = active.reduce((sum, h) => sum.plus(h.quantity), toDecimal(0));
        expect(held.equals(issued)).toBe(true);
        expect(issued.lte(toDecimal('5000'))).toBe(true);
        const numbers = active.flatMap((h) =>
          (state.blocks.get(h.id) ?? []).map((b) => [b.from.toNumber(), b.to.toNumber()] as const),
        );
        const counted = numbers.reduce((sum, [from, to]) => sum + (to - from + 1), 0);
        expect(counted).toBe(issued.toNumber());
        const sorted = [...numbers].sort((x, y) => x[0] - y[0]);
        for (let i = 1; i < sorted.length; i++)
          expect(sorted[i][0]).toBeGreaterThan(sorted[i - 1][1]);
        for (const h of active) {
          const own = (state.blocks.get(h.id) ?? []).reduce(
            (sum, b) => sum.plus(b.to.minus(b.from).plus(1)),
            toDecimal(0),
          );
          expect(own.equals(h.quantity)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
