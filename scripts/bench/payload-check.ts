/**
 * `ts-node --transpile-only scripts/bench/payload-check.ts [entries]`: what the replay's check of
 * each entry's payload against its type's schema (src/cap-table/ledger/payload-check.ts) costs,
 * beside the replay it runs in: a log of one class and `entries` issuances (10,000 by default,
 * the size of the bench's cap table, whose `?asOf=` dashboard replays it), replayed 15 times and
 * checked alone 15 times; medians of the 14 after the first (which compiles the checks).
 * In-process and without a database, so that the check's share is not lost in a request's noise.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { assertPayload } from '../../src/cap-table/ledger/payload-check';
import { replay } from '../../src/cap-table/ledger/reducer';
import type { LedgerTransaction } from '../../src/cap-table/ledger/transaction-types';

const entries = Number(process.argv[2] ?? 10_000);
const securityId = randomUUID();
const log: LedgerTransaction[] = [
  {
    id: randomUUID(),
    type: 'STOCK_CLASS_CREATED',
    effectiveDate: '2024-01-01',
    payload: {
      security: {
        id: securityId,
        name: 'Common',
        classType: 'common',
        idPrefix: 'CS-',
        authorizedShares: '100000000000',
        parValue: '0.0001',
        originalIssuePrice: null,
        currency: 'USD',
        seniority: 1,
        liquidationPreferenceMultiple: null,
        participating: false,
        participationCapMultiple: null,
        conversionRatio: '1',
        votesPerShare: '1',
        boardApprovalDate: null,
      },
    },
  },
];
for (let i = 0; i < entries; i++) {
  log.push({
    id: randomUUID(),
    type: 'TX_STOCK_ISSUANCE',
    effectiveDate: '2024-02-01',
    payload: {
      shareholdingId: randomUUID(),
      securityId,
      memberId: randomUUID(),
      quantity: String(1000 + i),
      pricePerShare: '0.5',
      issueDate: '2024-02-01',
      legendIds: [],
      consideration: null,
    },
  });
}

function time(run: () => void): { first: number; median: number } {
  const times: number[] = [];
  for (let round = 0; round < 15; round++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  const rest = times.slice(1).sort((a, b) => a - b);
  return { first: times[0], median: rest[Math.floor(rest.length / 2)] };
}

const checks = time(() => {
  for (const tx of log) assertPayload(tx, tx.payload);
});
const replays = time(() => replay(log));
const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(
  `${log.length} entries: the checks alone ${ms(checks.median)} (first ${ms(checks.first)}, compiling), ` +
    `the replay with them ${ms(replays.median)} (first ${ms(replays.first)}): ` +
    `${((100 * checks.median) / replays.median).toFixed(1)}% of it`,
);
