import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type Decimal from 'decimal.js';
import { In, IsNull } from 'typeorm';
import { isWholeNumber, toDecimal, toDecimalString } from '../../../libs/cap-math';
import { AccessContext, Clock } from '../../common';
import { allowLongStatements } from '../../database';
import { Tx } from '../../events';
import { HolderMembers, NewHolder } from '../../organizations';
import { StakeholderCounts } from '../billing-counts';
import { LedgerRuleError, LedgerState } from '../ledger/ledger-state';
import { applyTransaction } from '../ledger/reducer';
import { LedgerStore } from '../ledger/ledger-store';
import { fitsTheLedger } from '../ledger/rules';
import type { ClassType, SecurityRecord } from '../ledger/transaction-types';
import { LegendsService } from '../legends/legends.service';
import { fractionalAllowed } from '../quantities';
import { Security } from '../securities/security.entity';
import { toSecurityView } from '../securities/security.view';
import { classPrefix } from './class-prefix';
import { ImportedIssuance, IssuanceWriter } from './imported-issuances';

/** One row of a cap table import, its cells already read and checked for form. */
export interface CapTableImportRow {
  /** Its number in the file: 1 is the first row after the header. */
  row: number;
  holderName: string;
  /** Lower-cased, or null. */
  holderEmail: string | null;
  security: string;
  classType: ClassType;
  /** Decimal text, more than 0. */
  quantity: string;
  pricePerShare: string | null;
  issueDate: string;
  /** Not the number the shares get (the class prefix numbers them); gives a new class its prefix. */
  certificateNumber: string | null;
}

export interface ImportRowError {
  row: number;
  /** The column at fault; null when the row as a whole is (too many cells, broken quoting). */
  column: string | null;
  reason: string;
}

/** What an import adds: its rows, the members and classes it creates, the shareholdings it issues. */
export interface ImportSummary {
  rows: number;
  holders: number;
  securities: number;
  shareholdings: number;
}

export interface ImportOutcome {
  summary: ImportSummary;
  /** When not empty nothing may be kept: the caller rolls the transaction back. */
  errors: ImportRowError[];
  /** Some row needs more shares than its class has unissued (spec key `insufficientShares`). */
  insufficientShares: boolean;
}

/** The file an import came from, for its event. */
export interface ImportSource {
  id: string;
  name: string;
}

/**
 * Rows the reducer takes between two turns of the event loop: a short turn (about 10 ms), so the
 * answer of one statement is seen, and the next one sent, without waiting on the reducer.
 */
const YIELD_EVERY = 200;
/** Issuances decided before they are handed to the writer. */
const WRITE_EVERY = 10_000;

/** A class the import creates. */
interface NewClass {
  record: SecurityRecord;
  total: Decimal;
}

/**
 * Applies imported rows to the cap table inside the caller's transaction: every rule checked
 * (and every broken one reported, row by row) before anything is written, then the members,
 * classes and shareholdings written in bulk. The ledger's own reducer decides each issuance,
 * under locks of the classes it issues from, exactly as `POST .../shareholding` would; only the
 * persisting is batched (see IssuanceWriter).
 *
 * Holders: the current member with the row's e-mail address, else (no address) the one member
 * of that name; otherwise a new member (a Shareholder), one per address, or per name among the
 * rows without an address. Classes: the class of that exact name, whose type must be the row's;
 * otherwise a new class with the row's type, authorized for exactly the shares the file issues
 * from it, its certificate prefix taken from its first row's certificate number.
 */
@Injectable()
export class CapTableImport {
  constructor(
    private readonly store: LedgerStore,
    private readonly legends: LegendsService,
    private readonly holderMembers: HolderMembers,
    private readonly counts: StakeholderCounts,
    private readonly clock: Clock,
  ) {}

  async run(
    tx: Tx,
    access: AccessContext,
    rows: CapTableImportRow[],
    source: ImportSource | null,
    write = true,
  ): Promise<ImportOutcome> {
    await allowLongStatements(tx);
    const organizationId = access.organizationId!;
    const organization = access.organization!;
    const errors: ImportRowError[] = [];
    const refuse = (row: number, column: string | null, reason: string) =>
      errors.push({ row, column, reason });

    // The classes the rows name, locked (with the default legends every issuance carries).
    const named = [...new Set(rows.map((r) => r.security))];
    const existing = await tx.manager.getRepository(Security).find({
      where: { organizationId, name: In(named), deletedAt: IsNull() },
      select: { id: true, name: true },
    });
    const legendIds = await this.legends.defaults(organizationId);
    const state = await this.store.load(tx, organizationId, {
      securities: existing.map((s) => s.id),
      legends: legendIds,
    });
    const classByName = new Map(existing.map((s) => [s.name, s.id]));
    const known = await this.holderMembers.find(
      tx,
      organizationId,
      [...new Set(rows.flatMap((r) => (r.holderEmail ? [r.holderEmail] : [])))],
      [...new Set(rows.filter((r) => !r.holderEmail).map((r) => r.holderName))],
    );

    const newClasses = new Map<string, NewClass>();
    const newHolders = new Map<string, NewHolder>();
    const taken = new Set(await this.prefixes(tx, organizationId));
    const planned: { row: CapTableImportRow; securityId: string; memberId: string }[] = [];
    for (const r of rows) {
      let ok = true;
      if (!fractionalAllowed(organization) && !isWholeNumber(toDecimal(r.quantity))) {
        refuse(
          r.row,
          'quantity',
          'must be a whole number of shares (fractional units are for LLCs)',
        );
        ok = false;
      }
      const securityId = this.classOf(
        r,
        state,
        classByName,
        newClasses,
        taken,
        organization.currency,
        refuse,
      );
      const memberId = this.holderOf(r, known, newHolders, refuse);
      if (ok && securityId && memberId) planned.push({ row: r, securityId, memberId });
    }

    // New classes exist before their issuances: through the ledger's own path (few of them).
    for (const { record } of newClasses.values()) {
      await this.store.apply(
        tx,
        organizationId,
        access.userId,
        state,
        {
          id: randomUUID(),
          type: 'STOCK_CLASS_CREATED',
          effectiveDate: this.clock.today(),
          payload: { security: record },
        },
        this.clock.now(),
      );
    }

    // The new members are written first, then the issuances chunk by chunk as the reducer
    // decides them (it yields to the event loop now and then, so the statements go out):
    // PostgreSQL inserts while Node reduces. Once a row is refused nothing more is sent, and the
    // caller's rollback takes back what was.
    const members = write
      ? this.holderMembers.add(tx, access, [...newHolders.values()])
      : Promise.resolve();
    const writer = new IssuanceWriter(tx, organizationId, access.userId, state, legendIds, members);

    state.takeChanges();
    const pending: ImportedIssuance[] = [];
    let issued = 0;
    let insufficientShares = false;
    for (let n = 0; n < planned.length; n++) {
      if (n % YIELD_EVERY === YIELD_EVERY - 1) {
        // Whole chunks only: a remainder sent as a statement of its own would cost a round trip.
        if (write && !errors.length && pending.length >= WRITE_EVERY) {
          writer.write(pending.splice(0, WRITE_EVERY));
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      const { row, securityId, memberId } = planned[n];
      const issuance: ImportedIssuance = {
        transactionId: randomUUID(),
        payload: {
          shareholdingId: randomUUID(),
          securityId,
          memberId,
          quantity: row.quantity,
          pricePerShare: row.pricePerShare,
          issueDate: row.issueDate,
          legendIds,
          consideration: null,
        },
      };
      try {
        applyTransaction(state, {
          id: issuance.transactionId,
          type: 'TX_STOCK_ISSUANCE',
          effectiveDate: row.issueDate,
          payload: issuance.payload,
        });
        pending.push(issuance);
        issued++;
      } catch (err) {
        if (!(err instanceof LedgerRuleError)) {
          await writer.settle();
          throw err;
        }
        insufficientShares ||= err.rule === 'insufficientShares';
        refuse(
          row.row,
          'quantity',
          err.rule === 'insufficientShares' ? `insufficientShares: ${err.message}` : err.message,
        );
      }
    }

    const summary: ImportSummary = {
      rows: rows.length,
      holders: newHolders.size,
      securities: newClasses.size,
      shareholdings: issued,
    };
    if (errors.length || !write) {
      await writer.settle();
      errors.sort((a, b) => a.row - b.row);
      return { summary, errors, insufficientShares };
    }
    writer.write(pending);
    await writer.finish();
    await this.recordEvents(tx, access, [...newClasses.values()], summary, source);
    return { summary, errors, insufficientShares };
  }

  /** The row's class: an existing one of that name, or one the import creates. */
  private classOf(
    r: CapTableImportRow,
    state: LedgerState,
    classByName: Map<string, string>,
    newClasses: Map<string, NewClass>,
    taken: Set<string>,
    currency: string,
    refuse: (row: number, column: string, reason: string) => void,
  ): string | null {
    const existingId = classByName.get(r.security);
    if (existingId) {
      const s = state.securities.get(existingId)!;
      if (s.classType === r.classType) return existingId;
      refuse(r.row, 'classType', `class "${s.name}" is ${s.classType}, not ${r.classType}`);
      return null;
    }
    let created = newClasses.get(r.security);
    if (!created) {
      const idPrefix = classPrefix(r.security, r.certificateNumber, taken);
      taken.add(idPrefix);
      created = {
        total: toDecimal(0),
        record: {
          id: randomUUID(),
          name: r.security,
          classType: r.classType,
          idPrefix,
          authorizedShares: '0',
          parValue: null,
          originalIssuePrice: null,
          currency,
          seniority: 1,
          liquidationPreferenceMultiple: null,
          participating: false,
          participationCapMultiple: null,
          conversionRatio: '1',
          votesPerShare: '1',
          boardApprovalDate: null,
        },
      };
      newClasses.set(r.security, created);
    }
    if (created.record.classType !== r.classType) {
      refuse(
        r.row,
        'classType',
        `the file's class "${r.security}" is ${created.record.classType} on its first row`,
      );
      return null;
    }
    const total = created.total.plus(r.quantity);
    if (!fitsTheLedger(total)) {
      refuse(r.row, 'quantity', `takes class "${r.security}" past 28 digits before the point`);
      return null;
    }
    created.total = total;
    created.record.authorizedShares = toDecimalString(total);
    return created.record.id;
  }

  /** The row's holder: a current member, or a member the import creates. */
  private holderOf(
    r: CapTableImportRow,
    known: { byEmail: Map<string, string>; byName: Map<string, string[]> },
    newHolders: Map<string, NewHolder>,
    refuse: (row: number, column: string, reason: string) => void,
  ): string | null {
    if (r.holderEmail) {
      const member = known.byEmail.get(r.holderEmail);
      if (member) return member;
    } else {
      const members = known.byName.get(r.holderName) ?? [];
      if (members.length > 1) {
        refuse(
          r.row,
          'holderName',
          `${members.length} members are named "${r.holderName}": give the holder's e-mail address`,
        );
        return null;
      }
      if (members.length === 1) return members[0];
    }
    const key = r.holderEmail ? `email:${r.holderEmail}` : `name:${r.holderName}`;
    let holder = newHolders.get(key);
    if (!holder) {
      holder = { id: randomUUID(), name: r.holderName, email: r.holderEmail };
      newHolders.set(key, holder);
    }
    return holder.id;
  }

  /** Prefixes of the organization's classes (a new class's must differ). */
  private async prefixes(tx: Tx, organizationId: string): Promise<string[]> {
    const rows = await tx.manager.getRepository(Security).find({
      where: { organizationId, deletedAt: IsNull() },
      select: { idPrefix: true },
    });
    return rows.map((s) => s.idPrefix);
  }

  /**
   * `security.created` for each new class; one `shareholding.imported` for the rows (not a
   * `shareholding.created` each: an import of 100,000 rows is one act, and one entry of the
   * activity log); the shareholder count for billing. The members' `member.added` are recorded
   * with them.
   */
  private async recordEvents(
    tx: Tx,
    access: AccessContext,
    classes: NewClass[],
    summary: ImportSummary,
    source: ImportSource | null,
  ) {
    for (const { record } of classes) {
      const view = toSecurityView(
        await tx.manager.getRepository(Security).findOneByOrFail({ id: record.id }),
      );
      await tx.record({
        type: 'security.created',
        organizationId: access.organizationId,
        actorUserId: access.userId,
        object: view,
        description: `class ${view.name}: created by an import with ${view.authorizedShares} authorized shares`,
      });
    }
    await tx.record(
      {
        type: 'shareholding.imported',
        organizationId: access.organizationId,
        actorUserId: access.userId,
        object: { organization: access.organizationId, file: source?.id ?? null, ...summary },
        description: `${summary.shareholdings} shareholdings imported${source ? ` from ${source.name}` : ''}`,
      },
      this.counts.shareholders(access),
    );
  }
}
