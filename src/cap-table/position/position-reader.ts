import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { InTransaction } from '../../database';
import { Holding } from '../holdings/holding.entity';
import { EquityTransaction } from '../ledger/equity-transaction.entity';
import {
  toHoldingState,
  toPlanState,
  toPoolState,
  toScheduleState,
} from '../ledger/incentive-store';
import { emptyState } from '../ledger/ledger-state';
import { toSecurityState } from '../ledger/ledger-state-mappers';
import { Plan } from '../plans/plan.entity';
import { Pool } from '../plans/pool.entity';
import { Security } from '../securities/security.entity';
import { VestingScheduleEntity } from '../vesting-schedules/vesting-schedule.entity';
import {
  movesServe,
  recordsAsOf,
  shareholdingsAsOf,
  sharesAsOf,
} from '../ledger/moves/moves-reader';
import { LedgerReader } from '../ledger/ledger-reader';
import { replayAsOf } from './as-of';
import { addShares, positionOf, type Position } from './position';

/**
 * Reads the cap table as of a date: from the current tables when the log holds nothing dated
 * after it (the shares summed by PostgreSQL, no shareholding loaded), else from the ledger's
 * moves up to it (summed by PostgreSQL too; the log is not replayed: `ledger:verify` checks the
 * moves against a replay). Reads only; in the caller's transaction when given one (a conversion
 * reads in its own).
 */
@Injectable()
export class PositionReader {
  constructor(
    @InjectRepository(EquityTransaction) private readonly log: Repository<EquityTransaction>,
    private readonly ledger: LedgerReader,
  ) {}

  async positionAsOf(organizationId: string, date: string, tx?: InTransaction): Promise<Position> {
    if (!(await this.hasEntriesAfter(organizationId, date, tx)))
      return this.current(organizationId, date, tx);
    return (await movesServe(this.manager(tx), organizationId, date))
      ? this.moved(organizationId, date, tx)
      : this.replayed(organizationId, date, tx);
  }

  /**
   * The active shareholdings of `date` with their shares then (the CSV export's rows): those the
   * moves give shares on that date, or the lenient replay where they do not serve.
   */
  async shareholdingsAsOf(
    organizationId: string,
    date: string,
    tx?: InTransaction,
  ): Promise<{ id: string; memberId: string; securityId: string; quantity: string }[]> {
    const m = this.manager(tx);
    if (await movesServe(m, organizationId, date))
      return shareholdingsAsOf(m, organizationId, date);
    const state = replayAsOf(await this.ledger.transactions(organizationId, tx), date);
    return [...state.shareholdings.values()]
      .filter((h) => h.status === 'active' && h.quantity.gt(0))
      .map((h) => ({
        id: h.id,
        memberId: h.memberId,
        securityId: h.securityId,
        quantity: toDecimalString(h.quantity),
      }));
  }

  /**
   * Whether the log holds entries effective after `date`, or a holding whose issue date a
   * correction moved past it: the current tables are then not the cap table of `date`.
   */
  async hasEntriesAfter(
    organizationId: string,
    date: string,
    tx?: InTransaction,
  ): Promise<boolean> {
    const [row] = (await this.manager(tx).query(
      `SELECT EXISTS (SELECT 1 FROM equity_transaction
                      WHERE organization_id = $1 AND effective_date > $2)
           OR EXISTS (SELECT 1 FROM shareholding
                      WHERE organization_id = $1 AND issue_date > $2) AS later`,
      [organizationId, date],
    )) as { later: boolean }[];
    return row.later;
  }

  /** Where the moves do not serve (see `movesServe`): the lenient replay of the log. */
  private async replayed(
    organizationId: string,
    date: string,
    tx?: InTransaction,
  ): Promise<Position> {
    return positionOf(replayAsOf(await this.ledger.transactions(organizationId, tx), date), date);
  }

  /** The position of `date` from the ledger's moves: two indexed reads. */
  async moved(organizationId: string, date: string, tx?: InTransaction): Promise<Position> {
    const m = this.manager(tx);
    const reads = [
      () => recordsAsOf(m, organizationId, date),
      () => sharesAsOf(m, organizationId, date),
    ] as const;
    const [state, rows] = await (tx ? sequentially(reads) : together(reads));
    const shares: Position['shares'] = new Map();
    for (const r of rows) addShares(shares, state, r.memberId, r.securityId, toDecimal(r.quantity));
    return { asOf: date, state, shares };
  }

  private async current(
    organizationId: string,
    date: string,
    tx?: InTransaction,
  ): Promise<Position> {
    const m = this.manager(tx);
    const state = emptyState();
    const where = { organizationId };
    const inOrder = { created: 'ASC', id: 'ASC' } as const;
    const reads = [
      () => m.getRepository(Security).find({ where, order: inOrder }),
      () => m.getRepository(VestingScheduleEntity).find({ where, order: inOrder }),
      () => m.getRepository(Plan).find({ where, order: inOrder }),
      () => m.getRepository(Pool).find({ where, order: inOrder }),
      () => m.getRepository(Holding).find({ where, order: inOrder }),
      () =>
        m.query(
          `SELECT member_id AS "memberId", security_id AS "securityId", sum(quantity)::text AS quantity
           FROM shareholding WHERE organization_id = $1 AND status = 'active'
           GROUP BY member_id, security_id`,
          [organizationId],
        ) as Promise<{ memberId: string; securityId: string; quantity: string }[]>,
    ] as const;
    // Independent reads: together on the pool's connections, one by one in the caller's
    // transaction (its one connection).
    const [securities, schedules, plans, pools, holdings, rows] = await (tx
      ? sequentially(reads)
      : together(reads));
    // In the order they were created, as a replay makes them.
    for (const s of securities) state.securities.set(s.id, toSecurityState(s));
    for (const v of schedules) state.schedules.set(v.id, toScheduleState(v));
    for (const p of plans) state.plans.set(p.id, toPlanState(p));
    for (const p of pools) state.pools.set(p.id, toPoolState(p));
    for (const h of holdings) state.holdings.set(h.id, toHoldingState(h));
    const shares: Position['shares'] = new Map();
    for (const r of rows) addShares(shares, state, r.memberId, r.securityId, toDecimal(r.quantity));
    return { asOf: date, state, shares };
  }

  private manager(tx?: InTransaction) {
    return tx ? tx.manager : this.log.manager;
  }
}

type Results<T extends readonly (() => Promise<unknown>)[]> = {
  -readonly [K in keyof T]: Awaited<ReturnType<T[K]>>;
};

/** Runs the reads one after another, answering their results in order. */
async function sequentially<T extends readonly (() => Promise<unknown>)[]>(
  reads: T,
): Promise<Results<T>> {
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as Results<T>;
}

/** Runs the reads at once, answering their results in order. */
const together = <T extends readonly (() => Promise<unknown>)[]>(reads: T) =>
  Promise.all(reads.map((read) => read())) as Promise<Results<T>>;
