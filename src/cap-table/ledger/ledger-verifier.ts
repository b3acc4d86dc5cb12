import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type Decimal from 'decimal.js';
import { toDecimalString } from '../../../libs/cap-math';
import { readTally, recountTally } from './equity-tally';
import { LedgerState, LedgerRuleError } from './ledger-state';
import { MalformedEntryError } from './payload-check';
import { replay } from './reducer';
import { LedgerReader } from './ledger-reader';
import { compareMoves, type MoveDifference } from './moves/moves-check';

export interface Difference {
  record: string;
  id: string;
  field: string;
  /** As the replay of the log makes it. */
  replayed: unknown;
  /** As the tables hold it. */
  stored: unknown;
}

export interface Verification {
  organizationId: string;
  transactions: number;
  differences: Difference[];
  /**
   * Where the positions the ledger's moves make differ from the log replayed as of the same
   * dates (see `compareMoves`: the dates each entry counts from, or a sample of them).
   */
  moveDifferences: MoveDifference[];
  /** Set when the log itself does not replay (an entry broke an invariant, or is malformed). */
  replayError?: string;
}

/** Decimals as text and objects with sorted keys (jsonb keeps no key order). */
const plain = (value: unknown): unknown => {
  if (value && typeof value === 'object' && 'toFixed' in value && 'isZero' in value)
    return toDecimalString(value as Decimal);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, plain((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
};

/** Every field of every record of the two states that differs. */
export function compareStates(replayed: LedgerState, stored: LedgerState): Difference[] {
  const differences: Difference[] = [];
  const kinds = [
    'securities',
    'legends',
    'shareholdings',
    'blocks',
    'valuations',
    'capitalChanges',
    'schedules',
    'plans',
    'pools',
    'holdings',
    'requests',
  ] as const;
  for (const kind of kinds) {
    const a = replayed[kind] as Map<string, unknown>;
    const b = stored[kind] as Map<string, unknown>;
    for (const id of new Set([...a.keys(), ...b.keys()])) {
      const x = (a.get(id) ?? null) as Record<string, unknown> | null;
      const y = (b.get(id) ?? null) as Record<string, unknown> | null;
      if (!x || !y) {
        differences.push({
          record: kind,
          id,
          field: '*',
          replayed: x && 'present',
          stored: y && 'present',
        });
        continue;
      }
      const fields =
        kind === 'blocks' ? ['ranges'] : [...new Set([...Object.keys(x), ...Object.keys(y)])];
      for (const field of fields) {
        const left = JSON.stringify(plain(kind === 'blocks' ? ranges(x) : x[field]));
        const right = JSON.stringify(plain(kind === 'blocks' ? ranges(y) : y[field]));
        if (left !== right)
          differences.push({ record: kind, id, field, replayed: left, stored: right });
      }
    }
  }
  return differences;
}

const ranges = (blocks: unknown) =>
  (blocks as { from: Decimal; to: Decimal }[]).map(
    (b) => `${toDecimalString(b.from)}-${toDecimalString(b.to)}`,
  );

/**
 * `ledger:verify`: replays an organization's log and compares it with the current tables, and
 * the positions its moves make with the log replayed as of the same dates.
 */
@Injectable()
export class LedgerVerifier {
  constructor(
    private readonly ledger: LedgerReader,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The organizations with a log, for `ledger:verify --all`. */
  async organizations(): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT DISTINCT organization_id AS id FROM equity_transaction ORDER BY 1`,
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  async verify(organizationId: string): Promise<Verification> {
    const transactions = await this.ledger.transactions(organizationId);
    const stored = await this.ledger.current(organizationId);
    try {
      const replayed = replay(transactions);
      return {
        organizationId,
        transactions: transactions.length,
        differences: [
          ...compareStates(replayed, stored),
          ...(await this.tallyDifferences(organizationId)),
        ],
        moveDifferences: await compareMoves(this.dataSource.manager, organizationId, transactions),
      };
    } catch (err) {
      if (!(err instanceof LedgerRuleError || err instanceof MalformedEntryError)) throw err;
      return {
        organizationId,
        transactions: transactions.length,
        differences: [],
        moveDifferences: [],
        replayError: err.message,
      };
    }
  }

  /** The billing counts the database keeps by triggers, against a count of the holdings. */
  private async tallyDifferences(organizationId: string): Promise<Difference[]> {
    // One snapshot: a write committed between the two reads would show as a difference.
    const [kept, counted] = await this.dataSource.transaction('REPEATABLE READ', async (m) => [
      await readTally(m, organizationId),
      await recountTally(m, organizationId),
    ]);
    return (['shareholders', 'members'] as const)
      .filter((field) => kept[field] !== counted[field])
      .map((field) => ({
        record: 'tally',
        id: organizationId,
        field,
        replayed: counted[field],
        stored: kept[field],
      }));
  }
}
