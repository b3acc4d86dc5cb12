import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { InTransaction } from '../../database';
import { CapitalChange } from '../capital-changes/capital-change.entity';
import { Legend } from '../legends/legend.entity';
import { Security } from '../securities/security.entity';
import { ShareBlock } from '../shareholdings/share-block.entity';
import { Shareholding } from '../shareholdings/shareholding.entity';
import { Valuation } from '../valuations/valuation.entity';
import { EquityTransaction } from './equity-transaction.entity';
import { currentIncentives } from './incentive-store';
import { emptyState, LedgerState } from './ledger-state';
import {
  toBlock,
  toCapitalChangeRecord,
  toLegendState,
  toSecurityState,
  toShareholdingState,
  toValuationRecord,
} from './ledger-state-mappers';
import type { LedgerTransaction } from './transaction-types';

/** The cap table's log and current tables as they stand, read without locks (no change made). */
@Injectable()
export class LedgerReader {
  constructor(
    @InjectRepository(EquityTransaction) private readonly log: Repository<EquityTransaction>,
    @InjectRepository(Security) private readonly securities: Repository<Security>,
    @InjectRepository(Legend) private readonly legends: Repository<Legend>,
    @InjectRepository(Shareholding) private readonly holdings: Repository<Shareholding>,
    @InjectRepository(ShareBlock) private readonly blocks: Repository<ShareBlock>,
    @InjectRepository(Valuation) private readonly valuations: Repository<Valuation>,
    @InjectRepository(CapitalChange) private readonly capitalChanges: Repository<CapitalChange>,
  ) {}

  /**
   * The organization's log in recording order (plain rows: a replay reads thousands), in the
   * caller's transaction when given one.
   */
  async transactions(organizationId: string, tx?: InTransaction): Promise<LedgerTransaction[]> {
    return (await (tx?.manager ?? this.log.manager).query(
      `SELECT id, type, effective_date::text AS "effectiveDate", payload
       FROM equity_transaction WHERE organization_id = $1 ORDER BY sequence`,
      [organizationId],
    )) as LedgerTransaction[];
  }

  /** The sequence number of the organization's last log entry ('0' for an empty log). */
  async lastSequence(organizationId: string): Promise<string> {
    const [row] = (await this.log.query(
      `SELECT coalesce(max(sequence), 0)::text AS sequence FROM equity_transaction
       WHERE organization_id = $1`,
      [organizationId],
    )) as { sequence: string }[];
    return row.sequence;
  }

  /** The whole current state of an organization's cap table, as the tables hold it. */
  async current(organizationId: string): Promise<LedgerState> {
    const state = emptyState();
    const where = { organizationId };
    for (const s of await this.securities.findBy(where))
      state.securities.set(s.id, toSecurityState(s));
    for (const l of await this.legends.findBy(where)) state.legends.set(l.id, toLegendState(l));
    for (const h of await this.holdings.findBy(where)) {
      state.shareholdings.set(h.id, toShareholdingState(h));
      state.blocks.set(h.id, []);
    }
    const blocks = await this.blocks.find({ where, order: { fromNumber: 'ASC' } });
    for (const b of blocks) (state.blocks.get(b.shareholdingId) ?? []).push(toBlock(b));
    for (const v of await this.valuations.findBy(where))
      state.valuations.set(v.id, toValuationRecord(v));
    for (const c of await this.capitalChanges.findBy(where)) {
      state.capitalChanges.set(c.id, toCapitalChangeRecord(c));
    }
    await currentIncentives(this.log.manager, organizationId, state);
    return state;
  }
}
