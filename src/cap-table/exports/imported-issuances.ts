import { toDecimalString } from '../../../libs/cap-math';
import { InTransaction } from '../../database';
import type { LedgerState } from '../ledger/ledger-state';
import type { TransactionPayloads } from '../ledger/transaction-types';
import { Security } from '../securities/security.entity';

/** One issuance of an import: its log entry's id and payload, already applied to the state. */
export interface ImportedIssuance {
  transactionId: string;
  payload: TransactionPayloads['TX_STOCK_ISSUANCE'];
}

/** Rows per statement: each column goes as one array parameter, so only memory bounds it. */
const CHUNK = 10_000;

/**
 * One statement per chunk writes the holdings, their share blocks and their log entries: the
 * rows go to the server once (a column an array); each log entry's payload is the one the
 * reducer applied (the TX_STOCK_ISSUANCE definition's), as JSON. The log entries are inserted in import order, so their `sequence` replays to
 * these very tables; each holding is created a microsecond after the one before it, so lists
 * (oldest first) show the file's order.
 */
const INSERT_ISSUANCES = `
  WITH t AS (
    SELECT * FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::text[],
                         $8::text[], $9::varchar[], $10::numeric[], $11::numeric[], $15::text[])
      WITH ORDINALITY AS t(transaction_id, holding_id, member_id, security_id, quantity, price,
                           issue_date, certificate, from_number, to_number, payload, n)
  ),
  holdings AS (
    INSERT INTO shareholding (id, organization_id, member_id, security_id, quantity,
                              price_per_share, issue_date, certificate_number, status, legend_ids,
                              consideration, transferred_from_id, created, updated)
    SELECT holding_id, $1, member_id, security_id, quantity::numeric, price::numeric,
           issue_date::date, certificate, 'active', $13::uuid[], NULL, NULL,
           now() + ($12 + n) * interval '1 microsecond', now() + ($12 + n) * interval '1 microsecond'
    FROM t
  ),
  blocks AS (
    INSERT INTO share_block (organization_id, security_id, shareholding_id, from_number, to_number)
    SELECT $1, security_id, holding_id, from_number, to_number FROM t),
  moves AS (
    -- The holding's shares and its class's issued shares, from its issue date (as the ledger's
    -- own writes move them: ledger/moves).
    INSERT INTO ledger_move (organization_id, transaction_id, effective_date, dated_by, kind,
                             record_id, member_id, security_id, creates, quantity, deltas)
    SELECT $1, transaction_id, issue_date::date, holding_id, 'shareholdings', holding_id,
           member_id, security_id, true, quantity::numeric, NULL
    FROM t
    UNION ALL
    SELECT $1, transaction_id, issue_date::date, holding_id, 'securities', security_id, NULL,
           NULL, false, NULL, jsonb_build_object('issued', quantity)
    FROM t
  )
  INSERT INTO equity_transaction (id, organization_id, type, effective_date, actor_user_id, payload)
  SELECT transaction_id, $1, 'TX_STOCK_ISSUANCE', issue_date::date, $14, payload::jsonb
  FROM t ORDER BY n`;

/**
 * Persists an import's issuances as LedgerStore persists one transaction (the holding, its share
 * block and the class's counters as the reducer left them in `state`, and the log entry), but
 * thousands of rows a statement instead of a few statements a row: 100,000 rows take seconds,
 * not minutes. Issuances all look alike but for the columns sent (an active holding of one
 * block, the same legends, no consideration); anything else is refused rather than misfiled.
 *
 * A chunk is sent as soon as the reducer has decided it and the statements before it are done,
 * so the server inserts while the reducer goes on: the caller's transaction keeps it all or
 * nothing (a refused row later in the file rolls the written chunks back with everything else).
 */
export class IssuanceWriter {
  private written = 0;
  private readonly classes = new Set<string>();
  private chain: Promise<unknown>;

  /** `after`: what must be written first (the members the holdings refer to). */
  constructor(
    private readonly tx: InTransaction,
    private readonly organizationId: string,
    private readonly actorUserId: string,
    private readonly state: LedgerState,
    private readonly legendIds: string[],
    after: Promise<unknown>,
  ) {
    this.chain = after;
    this.chain.catch(() => undefined);
  }

  /** Queues the next issuances (file order), in statements of at most CHUNK rows. */
  write(issuances: ImportedIssuance[]): void {
    for (const i of issuances) this.classes.add(i.payload.securityId);
    for (let start = 0; start < issuances.length; start += CHUNK) {
      const parameters = this.parameters(issuances.slice(start, start + CHUNK), this.written);
      this.written += Math.min(CHUNK, issuances.length - start);
      this.chain = this.chain.then(() => this.tx.manager.query(INSERT_ISSUANCES, parameters));
      // Awaited by finish() or settle(); this only keeps a failure from going unobserved.
      this.chain.catch(() => undefined);
    }
  }

  /** Waits for what was sent, failures ignored (the caller is rolling back). */
  async settle(): Promise<void> {
    await this.chain.catch(() => undefined);
  }

  /** Waits for every statement, then writes the classes' counters as the reducer left them. */
  async finish(): Promise<void> {
    await this.chain;
    for (const id of this.classes) {
      const s = this.state.securities.get(id)!;
      await this.tx.manager.getRepository(Security).update(
        { id, organizationId: this.organizationId },
        {
          issuedShares: toDecimalString(s.issued),
          nextCertificateNumber: s.nextCertificateNumber,
          nextShareNumber: toDecimalString(s.nextShareNumber),
        },
      );
    }
  }

  private parameters(chunk: ImportedIssuance[], offset: number): unknown[] {
    const holdings = chunk.map(({ payload }) => {
      const h = this.state.shareholdings.get(payload.shareholdingId)!;
      const blocks = this.state.blocks.get(h.id) ?? [];
      if (
        blocks.length !== 1 ||
        h.status !== 'active' ||
        h.consideration !== payload.consideration ||
        h.legendIds.join() !== this.legendIds.join() ||
        payload.consideration !== null
      ) {
        throw new Error(`issuance ${h.id} is not a plain issuance; it cannot be bulk-inserted`);
      }
      return { h, block: blocks[0], payload };
    });
    return [
      this.organizationId,
      chunk.map((i) => i.transactionId),
      holdings.map(({ h }) => h.id),
      holdings.map(({ h }) => h.memberId),
      holdings.map(({ h }) => h.securityId),
      holdings.map(({ payload }) => payload.quantity),
      holdings.map(({ payload }) => payload.pricePerShare),
      holdings.map(({ payload }) => payload.issueDate),
      holdings.map(({ h }) => h.certificateNumber),
      holdings.map(({ block }) => toDecimalString(block.from)),
      holdings.map(({ block }) => toDecimalString(block.to)),
      offset,
      this.legendIds,
      this.actorUserId,
      holdings.map(({ payload }) => JSON.stringify(payload)),
    ];
  }
}
