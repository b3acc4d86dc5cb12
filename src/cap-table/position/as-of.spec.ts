import { toDecimalString } from '../../../libs/cap-math';
import {
  classCreated,
  id,
  securityRecord,
  stockIssuance,
  tx,
} from '../../../test/support/ledger-records';
import { AsOfReplay, countsFromSql, includedAsOf, replayAsOf } from './as-of';

const created = classCreated;
const issuance = stockIssuance;

describe('the as-of rule', () => {
  const entry = (type: Parameters<typeof includedAsOf>[0]['type'], effectiveDate: string) => ({
    type,
    effectiveDate,
  });

  it('keeps entries effective on or before the date, and definitions recorded at any time', () => {
    expect(includedAsOf(entry('TX_STOCK_TRANSFER', '2024-03-01'), '2024-03-01')).toBe(true);
    expect(includedAsOf(entry('TX_STOCK_TRANSFER', '2024-03-02'), '2024-03-01')).toBe(false);
    expect(includedAsOf(entry('STOCK_CLASS_CREATED', '2030-01-01'), '2024-03-01')).toBe(true);
    expect(includedAsOf(entry('STOCK_PLAN_POOL_CREATED', '2030-01-01'), '2024-03-01')).toBe(true);
    // A deletion is no definition: it ends something on its date.
    expect(includedAsOf(entry('STOCK_CLASS_DELETED', '2030-01-01'), '2024-03-01')).toBe(false);
  });

  it('counts an issuance from its corrected issue date, and a correction with its issuance', () => {
    const issued = entry('TX_STOCK_ISSUANCE', '2024-01-15');
    expect(includedAsOf(issued, '2024-03-01')).toBe(true);
    expect(includedAsOf(issued, '2024-03-01', { issueDate: '2024-06-01' })).toBe(false);
    expect(
      includedAsOf(entry('TX_STOCK_ISSUANCE', '2024-06-01'), '2024-03-01', {
        issueDate: '2024-01-01',
      }),
    ).toBe(true);
    const correction = entry('STOCK_ISSUANCE_AMENDED', '2024-09-01');
    expect(includedAsOf(correction, '2024-03-01')).toBe(false);
    expect(includedAsOf(correction, '2024-03-01', { amendsIncluded: true })).toBe(true);
  });

  it('in SQL: the shareholding’s issue date, else the entry’s effective date', () => {
    expect(countsFromSql('t', 'sh')).toBe('coalesce(sh.issue_date, t.effective_date)');
  });
});

describe('replayAsOf', () => {
  it('replays what was effective then, with the definitions of all time', () => {
    const s = securityRecord();
    const a = issuance(s.id, '1000', 'm1', '2024-01-15');
    const destinationId = id();
    const transfer = tx(
      'TX_STOCK_TRANSFER',
      {
        sourceId: a.shareholdingId,
        destinationId,
        toMemberId: 'm2',
        quantity: '400',
        date: '2024-03-01',
        pricePerShare: null,
      },
      '2024-03-01',
    );
    // The class was recorded later than the history it describes (a migration of old records).
    const log = [{ ...created(s), effectiveDate: '2025-06-01' }, a.tx, transfer];
    const early = replayAsOf(log, '2024-02-01');
    expect(toDecimalString(early.shareholdings.get(a.shareholdingId)!.quantity)).toBe('1000');
    expect(early.shareholdings.has(destinationId)).toBe(false);
    const before = replayAsOf(log, '2024-01-01');
    expect(before.shareholdings.size).toBe(0);
    expect(before.securities.has(s.id)).toBe(true);
    expect(replayAsOf(log, '2024-03-01').shareholdings.has(destinationId)).toBe(true);
  });

  it('counts an issuance from its corrected issue date, earlier or later', () => {
    const s = securityRecord();
    const later = issuance(s.id, '50', 'm1', '2024-01-15');
    const earlier = issuance(s.id, '70', 'm2', '2024-06-01');
    const log = [
      created(s),
      later.tx,
      earlier.tx,
      tx(
        'STOCK_ISSUANCE_AMENDED',
        { shareholdingId: later.shareholdingId, changes: { issueDate: '2024-06-01' } },
        '2024-09-01',
      ),
      tx(
        'STOCK_ISSUANCE_AMENDED',
        { shareholdingId: earlier.shareholdingId, changes: { issueDate: '2024-01-01' } },
        '2024-09-01',
      ),
    ];
    const march = replayAsOf(log, '2024-03-01');
    expect([...march.shareholdings.keys()]).toEqual([earlier.shareholdingId]);
    expect(toDecimalString(march.securities.get(s.id)!.issued)).toBe('70');
    expect(march.shareholdings.get(earlier.shareholdingId)!.issueDate).toBe('2024-01-01');
    expect(replayAsOf(log, '2024-07-01').shareholdings.size).toBe(2);
  });
});

describe('AsOfReplay, the stream the OCF export reads', () => {
  it('without shareholdings, keeps the records replayAsOf keeps, entry by entry', () => {
    const s = securityRecord();
    const a = issuance(s.id, '1000', 'm1', '2024-01-15');
    const split = tx(
      'TX_STOCK_CLASS_SPLIT',
      {
        securityId: s.id,
        numerator: '2',
        denominator: '1',
        fractional: false,
        date: '2024-05-01',
        before: [{ shareholdingId: a.shareholdingId, quantity: '1000' }],
      },
      '2024-05-01',
    );
    const log = [created(s), a.tx, split];
    for (const date of ['2024-01-01', '2024-02-01', '2024-06-01']) {
      const stream = new AsOfReplay(date, { shareholdings: false });
      const seen: number[] = [];
      for (const entry of log) {
        if (!stream.includes(entry)) continue;
        stream.apply(entry);
        seen.push(stream.state.shareholdings.size);
      }
      const whole = replayAsOf(log, date);
      expect({ date, seen: seen.every((n) => n === 0) }).toEqual({ date, seen: true });
      expect([...stream.state.securities.keys()]).toEqual([...whole.securities.keys()]);
      expect(toDecimalString(stream.state.securities.get(s.id)!.authorized)).toBe(
        toDecimalString(whole.securities.get(s.id)!.authorized),
      );
    }
  });
});
