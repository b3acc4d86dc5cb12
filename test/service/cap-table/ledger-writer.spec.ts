import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import type { AccessContext } from '../../../src/common';
import { DomainError } from '../../../src/common';
import {
  LedgerRule,
  LedgerRuleError,
  LedgerState,
  ShareholdingState,
} from '../../../src/cap-table/ledger/ledger-state';
import { LedgerReader } from '../../../src/cap-table/ledger/ledger-reader';
import { LedgerVerifier } from '../../../src/cap-table/ledger/ledger-verifier';
import { LedgerWriter } from '../../../src/cap-table/ledger/ledger-writer';
import { rebuildMoves } from '../../../src/cap-table/ledger/moves/moves-backfill';
import { applyTransaction, replay } from '../../../src/cap-table/ledger/reducer';
import type {
  LedgerTransaction,
  SecurityRecord,
  TransactionPayloads,
  TransactionType,
} from '../../../src/cap-table/ledger/transaction-types';
import { TRANSACTIONS, TransactionDefinition } from '../../../src/cap-table/ledger/transactions';
import { ShareholdingsService } from '../../../src/cap-table/shareholdings/shareholdings.service';
import { MemberAdditionsService } from '../../../src/organizations/members/member-additions.service';
import { OrganizationsService } from '../../../src/organizations/organizations/organizations.service';
import { BUILT_IN_ROLES, OWNER_ROLE_ID } from '../../../src/organizations/permissions/permissions';
import { CapTableModule } from '../../../src/cap-table';
import { createServiceTest, ServiceTest } from '../../support/service';
import { securityRecord } from '../../support/ledger-records';
import { createUser } from '../../support/users';

/**
 * The ledger's write path on a real database, without HTTP: a write loads and locks only the
 * records its transaction's definition names (its scope), so these properties check that such a
 * partial state decides and writes exactly as a replay of the whole log does, and that the API's
 * path and the OCF import's in-memory check accept the same transactions.
 */

/** What a caller sees of a write: accepted, or refused with the API's status, key and message. */
type Outcome = 'accepted' | { status: number; key: string; message: string; field?: unknown };

/** How the API answers each rule a definition can refuse by (the writer's mapping). */
const ANSWER: Record<LedgerRule, { status: number; key: string }> = {
  insufficientShares: { status: 400, key: 'insufficientShares' },
  conflict: { status: 409, key: 'conflict' },
  notFound: { status: 404, key: 'notFound' },
  invalid: { status: 400, key: 'badRequest' },
  invalidFields: { status: 400, key: 'invalidFields' },
};

const day = (n: number, from = '2024-01-01') =>
  new Date(Date.parse(`${from}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const transaction = <T extends TransactionType>(
  type: T,
  effectiveDate: string,
  payload: TransactionPayloads[T],
) => ({ id: randomUUID(), type, effectiveDate, payload }) as LedgerTransaction;

/** Certificate order: stable across the runs of a seed, unlike the random ids. */
const byCertificate = (state: LedgerState, active: boolean) =>
  [...state.shareholdings.values()]
    .filter((h) => !active || h.status === 'active')
    .sort((a, b) => a.certificateNumber.localeCompare(b.certificateNumber));

const FAST_CHECK = { interruptAfterTimeLimit: 150_000 };

describe('LedgerWriter', () => {
  let t: ServiceTest;
  let db: DataSource;
  let writer: LedgerWriter;
  let store: LedgerReader;
  let verifier: LedgerVerifier;
  let organizations: OrganizationsService;
  let additions: MemberAdditionsService;
  let shareholdings: ShareholdingsService;
  let userId: string;

  beforeAll(async () => {
    t = await createServiceTest(CapTableModule);
    db = t.get(DataSource);
    writer = t.get(LedgerWriter);
    store = t.get(LedgerReader);
    verifier = t.get(LedgerVerifier);
    organizations = t.get(OrganizationsService);
    additions = t.get(MemberAdditionsService);
    shareholdings = t.get(ShareholdingsService);
    userId = (await createUser(t)).user.id;
  });
  afterAll(() => t.close());

  /** A transaction through the API's path: its definition's scope loaded and locked, then applied. */
  function write(organizationId: string, tx: LedgerTransaction): Promise<string> {
    const definition = TRANSACTIONS[tx.type] as TransactionDefinition<TransactionType>;
    return writer.change(organizationId, userId, definition.scope(tx.payload as never), (c) =>
      c.apply(tx.type, tx.effectiveDate, tx.payload as never),
    );
  }

  async function writeOutcome(organizationId: string, tx: LedgerTransaction): Promise<Outcome> {
    return outcomeOf(() => write(organizationId, tx));
  }

  /** Accepted, or the DomainError the caller would answer with. */
  async function outcomeOf(work: () => Promise<unknown>): Promise<Outcome> {
    try {
      await work();
      return 'accepted';
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return {
        status: err.status,
        key: err.key,
        message: err.message,
        field: err.details.body?.field,
      };
    }
  }

  /** The check the OCF import runs on each transaction of a package before it writes any. */
  function inMemoryOutcome(state: LedgerState, tx: LedgerTransaction): Outcome {
    try {
      applyTransaction(state, tx, true);
      return 'accepted';
    } catch (err) {
      if (!(err instanceof LedgerRuleError)) throw err;
      return { ...ANSWER[err.rule], message: err.message, field: err.field };
    }
  }

  interface CapTable {
    organizationId: string;
    /** What its Owner's requests carry. */
    owner: AccessContext;
    holders: { id: string; entity: string }[];
    classes: string[];
    legendId: string;
    /** The transactions written to set it up. */
    logged: number;
  }

  /** A fresh organization with three holders, a legend and the given classes. */
  async function capTable(classes: (Partial<SecurityRecord> & { idPrefix: string })[]) {
    const org = await organizations.create(userId, { name: `Org ${randomUUID().slice(0, 6)}` });
    const owner: AccessContext = {
      userId,
      organizationId: org.id,
      organization: { id: org.id, type: 'corporation', currency: 'USD' },
      memberId: randomUUID(),
      roleId: OWNER_ROLE_ID,
      scope: 'all',
      permissions: new Set(BUILT_IN_ROLES.find((r) => r.id === OWNER_ROLE_ID)!.permissions),
      versions: {},
    };
    const holders = [];
    for (const name of ['Ada', 'Bo', 'Cy']) {
      const m = await additions.add(owner, { name });
      holders.push({ id: m.id, entity: m.entity! });
    }
    const table: CapTable = {
      organizationId: org.id,
      owner,
      holders,
      classes: [],
      legendId: '',
      logged: 0,
    };
    for (const fields of classes) {
      const security = securityRecord({ id: randomUUID(), name: fields.idPrefix, ...fields });
      await write(org.id, transaction('STOCK_CLASS_CREATED', '2024-01-01', { security }));
      table.classes.push(security.id);
    }
    const legend = {
      id: randomUUID(),
      name: 'Securities Act',
      text: 'Not registered.',
      isDefault: false,
    };
    await write(org.id, transaction('STOCK_LEGEND_TEMPLATE_CREATED', '2024-01-01', { legend }));
    table.legendId = legend.id;
    table.logged = classes.length + 1;
    return table;
  }

  describe('a scoped load plus apply equals a full replay', () => {
    type Command =
      | {
          kind: 'issue';
          cls: number;
          holder: number;
          quantity: number;
          day: number;
          legend: boolean;
          price: string | null;
        }
      | { kind: 'transfer'; pick: number; to: number; percent: number; days: number }
      | { kind: 'void'; pick: number }
      | { kind: 'amend'; pick: number; delta: number }
      | { kind: 'split'; cls: number; ratio: [number, number] }
      | { kind: 'authorize'; cls: number; headroom: number }
      | { kind: 'valuation'; day: number; price: string }
      | { kind: 'capital'; holder: number; cents: number; contribution: boolean; day: number };

    const command: fc.Arbitrary<Command> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('issue' as const),
          cls: fc.nat(1),
          holder: fc.nat(2),
          quantity: fc.integer({ min: 1, max: 3000 }),
          day: fc.integer({ min: 0, max: 400 }),
          legend: fc.boolean(),
          price: fc.constantFrom(null, '0.0001', '1.25'),
        }),
      },
      {
        // Sometimes more than held (percent > 100), to the same holder, or before the issue date.
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('transfer' as const),
          pick: fc.nat(),
          to: fc.nat(2),
          percent: fc.integer({ min: 1, max: 130 }),
          days: fc.integer({ min: -15, max: 60 }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('void' as const), pick: fc.nat() }) },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('amend' as const),
          pick: fc.nat(),
          delta: fc.integer({ min: -200, max: 2000 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('split' as const),
          cls: fc.nat(1),
          ratio: fc.constantFrom<[number, number]>([2, 1], [1, 2], [3, 2], [2, 3], [1, 10], [1, 1]),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('authorize' as const),
          cls: fc.nat(1),
          headroom: fc.integer({ min: -100, max: 3000 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('valuation' as const),
          day: fc.integer({ min: 0, max: 400 }),
          price: fc.constantFrom('0.1', '1.25', '4.2'),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('capital' as const),
          holder: fc.nat(2),
          cents: fc.integer({ min: 1, max: 1_000_000 }),
          contribution: fc.boolean(),
          day: fc.integer({ min: 0, max: 400 }),
        }),
      },
    );

    /** The command as a transaction on the cap table as it stands, or null if it has nothing to act on. */
    function toTransaction(
      cmd: Command,
      table: CapTable,
      state: LedgerState,
    ): LedgerTransaction | null {
      const cls = (i: number) => table.classes[i % table.classes.length];
      const holder = (i: number) => table.holders[i % table.holders.length];
      const pick = (hs: ShareholdingState[], i: number) => (hs.length ? hs[i % hs.length] : null);
      switch (cmd.kind) {
        case 'issue':
          return transaction('TX_STOCK_ISSUANCE', day(cmd.day), {
            shareholdingId: randomUUID(),
            securityId: cls(cmd.cls),
            memberId: holder(cmd.holder).id,
            quantity: String(cmd.quantity),
            pricePerShare: cmd.price,
            issueDate: day(cmd.day),
            legendIds: cmd.legend ? [table.legendId] : [],
            consideration: null,
          });
        case 'transfer': {
          const source = pick(byCertificate(state, true), cmd.pick);
          if (!source) return null;
          const quantity = source.quantity.times(cmd.percent).div(100).floor();
          const date = day(cmd.days, source.issueDate);
          return transaction('TX_STOCK_TRANSFER', date, {
            sourceId: source.id,
            destinationId: randomUUID(),
            toMemberId: holder(cmd.to).id,
            quantity: toDecimalString(quantity.isZero() ? toDecimal(1) : quantity),
            date,
            pricePerShare: null,
          });
        }
        case 'void': {
          // Any holding: a voided or transferred one is refused.
          const h = pick(byCertificate(state, false), cmd.pick);
          if (!h) return null;
          return transaction('TX_STOCK_CANCELLATION', '2025-06-01', {
            shareholdingId: h.id,
            quantity: toDecimalString(h.quantity),
            reason: 'voided',
          });
        }
        case 'amend': {
          const h = pick(byCertificate(state, false), cmd.pick);
          if (!h) return null;
          const quantity = h.quantity.plus(cmd.delta);
          return transaction('STOCK_ISSUANCE_AMENDED', '2025-06-01', {
            shareholdingId: h.id,
            changes: { quantity: toDecimalString(quantity.gt(0) ? quantity : toDecimal(1)) },
          });
        }
        case 'split':
          return transaction('TX_STOCK_CLASS_SPLIT', '2025-01-01', {
            securityId: cls(cmd.cls),
            numerator: String(cmd.ratio[0]),
            denominator: String(cmd.ratio[1]),
            fractional: false,
            date: '2025-01-01',
            before: [],
          });
        case 'authorize': {
          const s = state.securities.get(cls(cmd.cls))!;
          return transaction('TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT', '2025-01-01', {
            securityId: s.id,
            previousSharesAuthorized: toDecimalString(s.authorized),
            newSharesAuthorized: toDecimalString(s.issued.plus(s.reserved).plus(cmd.headroom)),
            reason: null,
          });
        }
        case 'valuation':
          return transaction('VALUATION_RECORDED', day(cmd.day), {
            valuation: {
              id: randomUUID(),
              type: '409A',
              pricePerShare: cmd.price,
              securityId: null,
              effectiveDate: day(cmd.day),
              provider: null,
              reportFileId: null,
            },
          });
        case 'capital':
          return transaction('CAPITAL_CHANGE_RECORDED', day(cmd.day), {
            capitalChange: {
              id: randomUUID(),
              memberId: holder(cmd.holder).id,
              entityId: holder(cmd.holder).entity,
              date: day(cmd.day),
              // Decimals in a payload are canonical: every caller writes them so (decimalText).
              amount: toDecimalString(toDecimal(cmd.cents).div(100)),
              currency: 'USD',
              type: cmd.contribution ? 'contribution' : 'distribution',
              description: null,
            },
          });
      }
    }

    /** Every kind of command, each accepted at least once, and the transfers' refusals. */
    const everyKind: Command[] = [
      { kind: 'issue', cls: 0, holder: 0, quantity: 1000, day: 10, legend: true, price: '1.25' },
      { kind: 'issue', cls: 1, holder: 1, quantity: 400, day: 20, legend: false, price: null },
      { kind: 'transfer', pick: 0, to: 1, percent: 30, days: 5 },
      { kind: 'transfer', pick: 0, to: 0, percent: 10, days: 5 },
      { kind: 'transfer', pick: 0, to: 2, percent: 10, days: -1 },
      { kind: 'transfer', pick: 0, to: 2, percent: 120, days: 5 },
      { kind: 'amend', pick: 1, delta: 50 },
      { kind: 'split', cls: 0, ratio: [3, 2] },
      { kind: 'void', pick: 2 },
      { kind: 'authorize', cls: 1, headroom: 10 },
      { kind: 'valuation', day: 30, price: '1.25' },
      { kind: 'capital', holder: 2, cents: 123456, contribution: true, day: 40 },
    ];

    it('after every write the tables equal the replay of the whole log', async () => {
      const tally = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(fc.array(command, { minLength: 5, maxLength: 12 }), async (commands) => {
          const table = await capTable([
            { authorizedShares: '20000', idPrefix: 'CS-' },
            {
              authorizedShares: '5000',
              idPrefix: 'PA-',
              classType: 'preferred',
              originalIssuePrice: '1.25',
              liquidationPreferenceMultiple: '1',
            },
          ]);
          const org = table.organizationId;
          let accepted = 0;
          for (const [step, cmd] of commands.entries()) {
            const tx = toTransaction(cmd, table, await store.current(org));
            if (!tx) continue;
            const outcome = await writeOutcome(org, tx);
            if (outcome === 'accepted') accepted++;
            const label = `${cmd.kind}:${outcome === 'accepted' ? outcome : outcome.key}`;
            tally.set(label, (tally.get(label) ?? 0) + 1);
            const verified = await verifier.verify(org);
            expect({ step, ...verified }).toEqual({
              step,
              organizationId: org,
              transactions: table.logged + accepted,
              differences: [],
              // The positions the moves make, as of each date an entry counts from.
              moveDifferences: [],
            });
          }
          // The invariants the tables keep: each class has issued what its holdings hold, and
          // each holding holds the share numbers of its quantity.
          const stored = await store.current(org);
          for (const s of stored.securities.values()) {
            const held = byCertificate(stored, true)
              .filter((h) => h.securityId === s.id)
              .reduce((n, h) => n.plus(h.quantity), toDecimal(0));
            expect([s.name, toDecimalString(s.issued)]).toEqual([s.name, toDecimalString(held)]);
          }
          for (const h of byCertificate(stored, true)) {
            const numbered = stored.blocks
              .get(h.id)!
              .reduce((n, b) => n.plus(b.to.minus(b.from).plus(1)), toDecimal(0));
            expect([h.certificateNumber, toDecimalString(numbered)]).toEqual([
              h.certificateNumber,
              toDecimalString(h.quantity),
            ]);
          }
        }),
        { ...FAST_CHECK, numRuns: 20, examples: [[everyKind]] },
      );
      for (const label of [
        'issue:accepted',
        'transfer:accepted',
        'transfer:badRequest',
        'transfer:insufficientShares',
        'amend:accepted',
        'split:accepted',
        'void:accepted',
        'authorize:accepted',
        'valuation:accepted',
        'capital:accepted',
      ]) {
        expect([label, (tally.get(label) ?? 0) > 0]).toEqual([label, true]);
      }
    }, 180_000);

    // Moved from the e2e suite (ledger-integrity): the CLI's report of it stays there.
    it('finds a table edited behind the log’s back', async () => {
      const table = await capTable([{ authorizedShares: '5000', idPrefix: 'CS-' }]);
      const org = table.organizationId;
      const issuance = transaction('TX_STOCK_ISSUANCE', '2024-01-15', {
        shareholdingId: randomUUID(),
        securityId: table.classes[0],
        memberId: table.holders[0].id,
        quantity: '1000',
        pricePerShare: null,
        issueDate: '2024-01-15',
        legendIds: [],
        consideration: null,
      });
      await write(org, issuance);
      expect((await verifier.verify(org)).differences).toEqual([]);
      const { shareholdingId } = issuance.payload as TransactionPayloads['TX_STOCK_ISSUANCE'];
      await db.query(`UPDATE shareholding SET quantity = quantity + 7 WHERE id = $1`, [
        shareholdingId,
      ]);
      expect(await verifier.verify(org)).toEqual({
        organizationId: org,
        transactions: 3,
        moveDifferences: [],
        differences: [
          {
            record: 'shareholdings',
            id: shareholdingId,
            field: 'quantity',
            replayed: '"1000"',
            stored: '"1007"',
          },
        ],
      });
    });
  });

  describe('the moves', () => {
    it('ledger:verify finds a move edited behind the log’s back', async () => {
      const table = await capTable([{ authorizedShares: '5000', idPrefix: 'CS-' }]);
      const org = table.organizationId;
      const issuance = transaction('TX_STOCK_ISSUANCE', '2024-01-15', {
        shareholdingId: randomUUID(),
        securityId: table.classes[0],
        memberId: table.holders[0].id,
        quantity: '1000',
        pricePerShare: null,
        issueDate: '2024-01-15',
        legendIds: [],
        consideration: null,
      });
      await write(org, issuance);
      expect((await verifier.verify(org)).moveDifferences).toEqual([]);
      const { shareholdingId } = issuance.payload as TransactionPayloads['TX_STOCK_ISSUANCE'];
      await db.query(
        `UPDATE ledger_move SET quantity = quantity + 7 WHERE record_id = $1 AND kind = 'shareholdings'`,
        [shareholdingId],
      );
      const { moveDifferences, differences } = await verifier.verify(org);
      // The tables are right; the position the moves make of 2024-01-15 is not.
      expect(differences).toEqual([]);
      expect(moveDifferences).toEqual([
        {
          date: '2024-01-15',
          record: 'shares',
          id: table.holders[0].id,
          field: table.classes[0],
          replayed: '1000',
          moved: '1007',
        },
      ]);
    });

    it('the start-up backfill makes from the log the moves its writes made', async () => {
      const table = await capTable([{ authorizedShares: '5000', idPrefix: 'CS-' }]);
      const org = table.organizationId;
      const shareholdingId = randomUUID();
      await write(
        org,
        transaction('TX_STOCK_ISSUANCE', '2024-03-01', {
          shareholdingId,
          securityId: table.classes[0],
          memberId: table.holders[0].id,
          quantity: '1000',
          pricePerShare: null,
          issueDate: '2024-03-01',
          legendIds: [],
          consideration: null,
        }),
      );
      await write(
        org,
        transaction('TX_STOCK_TRANSFER', '2024-04-01', {
          sourceId: shareholdingId,
          destinationId: randomUUID(),
          toMemberId: table.holders[1].id,
          quantity: '400',
          date: '2024-04-01',
          pricePerShare: null,
        }),
      );
      await write(
        org,
        transaction('STOCK_ISSUANCE_AMENDED', '2024-09-02', {
          shareholdingId,
          changes: { issueDate: '2024-02-01' },
        }),
      );
      const moves = async () =>
        (await db.query(
          `SELECT transaction_id, effective_date::text, dated_by, kind, record_id, member_id,
                  security_id, creates, resets, quantity::text, deltas, fields
           FROM ledger_move WHERE organization_id = $1 ORDER BY id`,
          [org],
        )) as object[];
      const written = await moves();
      expect(written.length).toBeGreaterThan(3);
      await db.transaction((m) => rebuildMoves(m, org));
      expect(await moves()).toEqual(written);
    });

    it('re-date an issuance and its corrections when its issue date is corrected', async () => {
      const table = await capTable([{ authorizedShares: '5000', idPrefix: 'CS-' }]);
      const org = table.organizationId;
      const shareholdingId = randomUUID();
      await write(
        org,
        transaction('TX_STOCK_ISSUANCE', '2024-03-01', {
          shareholdingId,
          securityId: table.classes[0],
          memberId: table.holders[0].id,
          quantity: '1000',
          pricePerShare: null,
          issueDate: '2024-03-01',
          legendIds: [],
          consideration: null,
        }),
      );
      await write(
        org,
        transaction('STOCK_ISSUANCE_AMENDED', '2024-09-01', {
          shareholdingId,
          changes: { quantity: '1200' },
        }),
      );
      await write(
        org,
        transaction('STOCK_ISSUANCE_AMENDED', '2024-09-02', {
          shareholdingId,
          changes: { issueDate: '2024-06-01' },
        }),
      );
      const dates = (await db.query(
        `SELECT DISTINCT effective_date::text AS d FROM ledger_move WHERE organization_id = $1 AND record_id = $2`,
        [org, shareholdingId],
      )) as { d: string }[];
      expect(dates.map((r) => r.d)).toEqual(['2024-06-01']);
      const verified = await verifier.verify(org);
      expect(verified.moveDifferences).toEqual([]);
      expect(verified.differences).toEqual([]);
    });
  });

  describe('the API path and the OCF import accept the same transactions', () => {
    const AUTHORIZED = 1000;

    const base = fc.record({
      issuances: fc.array(
        fc.record({
          holder: fc.nat(2),
          quantity: fc.integer({ min: 1, max: 240 }),
          day: fc.integer({ min: 0, max: 60 }),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      voided: fc.option(fc.nat(), { nil: undefined }),
    });
    type Base = typeof base extends fc.Arbitrary<infer B> ? B : never;

    /** A holding of the base by position (voided ones included), or one that does not exist. */
    const holdingRef = fc.oneof(
      { weight: 4, arbitrary: fc.nat() },
      { weight: 1, arbitrary: fc.constant('unknown' as const) },
    );
    const candidate = fc.oneof(
      {
        weight: 5,
        arbitrary: fc.record({
          kind: fc.constant('transfer' as const),
          source: holdingRef,
          to: fc.oneof(fc.constant('same' as const), fc.nat(2)),
          date: fc.constantFrom('before', 'same', 'after'),
          quantity: fc.constantFrom('zero', 'negative', 'one', 'all', 'oneMore', 'huge'),
          // Through the writer, or through the route's service (its own checks, then the writer).
          via: fc.constantFrom('writer', 'service'),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('issuance' as const),
          cls: fc.constantFrom('live', 'deleted', 'unknown'),
          quantity: fc.constantFrom('one', 'unissued', 'oneMore', 'zero', 'negative'),
          legend: fc.constantFrom('none', 'live', 'unknown'),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('cancellation' as const), target: holdingRef }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('amendment' as const),
          target: holdingRef,
          quantity: fc.constantFrom('unissued', 'oneMore', 'zero'),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('split' as const),
          ratio: fc.constantFrom<[string, string]>(
            ['2', '1'],
            ['1', '1'],
            ['0', '1'],
            ['1', '100000'],
          ),
        }),
      },
    );
    type Candidate = typeof candidate extends fc.Arbitrary<infer C> ? C : never;

    /** The base written through the writer: a live class, a deleted one, a few issuances. */
    async function writeBase(b: Base) {
      const table = await capTable([
        { authorizedShares: String(AUTHORIZED), idPrefix: 'CS-' },
        { authorizedShares: '100', idPrefix: 'OLD-' },
      ]);
      const org = table.organizationId;
      await write(
        org,
        transaction('STOCK_CLASS_DELETED', '2024-01-01', { securityId: table.classes[1] }),
      );
      const issued: string[] = [];
      for (const i of b.issuances) {
        const shareholdingId = randomUUID();
        await write(
          org,
          transaction('TX_STOCK_ISSUANCE', day(i.day), {
            shareholdingId,
            securityId: table.classes[0],
            memberId: table.holders[i.holder].id,
            quantity: String(i.quantity),
            pricePerShare: null,
            issueDate: day(i.day),
            legendIds: [],
            consideration: null,
          }),
        );
        issued.push(shareholdingId);
      }
      if (b.voided !== undefined) {
        const shareholdingId = issued[b.voided % issued.length];
        await write(
          org,
          transaction('TX_STOCK_CANCELLATION', '2024-06-01', {
            shareholdingId,
            quantity: '0',
            reason: 'voided',
          }),
        );
      }
      return { table, issued };
    }

    function toTransaction(
      c: Candidate,
      { table, issued }: Awaited<ReturnType<typeof writeBase>>,
      state: LedgerState,
    ): LedgerTransaction {
      const live = state.securities.get(table.classes[0])!;
      const unissued = live.authorized.minus(live.issued).minus(live.reserved);
      const holding = (ref: number | 'unknown') =>
        ref === 'unknown' ? undefined : state.shareholdings.get(issued[ref % issued.length]);
      switch (c.kind) {
        case 'transfer': {
          const source = holding(c.source);
          const held = source?.quantity ?? toDecimal(100);
          const issueDate = source?.issueDate ?? '2024-03-01';
          const date = day({ before: -1, same: 0, after: 30 }[c.date], issueDate);
          const quantity = {
            zero: '0',
            negative: '-5',
            one: '1',
            all: toDecimalString(held),
            oneMore: toDecimalString(held.plus(1)),
            huge: '99999999999999999999',
          }[c.quantity];
          return transaction('TX_STOCK_TRANSFER', date, {
            sourceId: source?.id ?? randomUUID(),
            destinationId: randomUUID(),
            toMemberId:
              c.to === 'same' ? (source?.memberId ?? table.holders[0].id) : table.holders[c.to].id,
            quantity,
            date,
            pricePerShare: null,
          });
        }
        case 'issuance': {
          const quantity = {
            one: '1',
            unissued: toDecimalString(unissued),
            oneMore: toDecimalString(unissued.plus(1)),
            zero: '0',
            negative: '-1',
          }[c.quantity];
          return transaction('TX_STOCK_ISSUANCE', '2024-07-01', {
            shareholdingId: randomUUID(),
            securityId: { live: live.id, deleted: table.classes[1], unknown: randomUUID() }[c.cls],
            memberId: table.holders[0].id,
            quantity,
            pricePerShare: null,
            issueDate: '2024-07-01',
            legendIds: { none: [], live: [table.legendId], unknown: [randomUUID()] }[c.legend],
            consideration: null,
          });
        }
        case 'cancellation': {
          const h = holding(c.target);
          return transaction('TX_STOCK_CANCELLATION', '2024-07-01', {
            shareholdingId: h?.id ?? randomUUID(),
            quantity: h ? toDecimalString(h.quantity) : '1',
            reason: 'voided',
          });
        }
        case 'amendment': {
          const h = holding(c.target);
          const held = h?.quantity ?? toDecimal(1);
          const quantity = {
            unissued: toDecimalString(held.plus(unissued)),
            oneMore: toDecimalString(held.plus(unissued).plus(1)),
            zero: '0',
          }[c.quantity];
          return transaction('STOCK_ISSUANCE_AMENDED', '2024-07-01', {
            shareholdingId: h?.id ?? randomUUID(),
            changes: { quantity },
          });
        }
        case 'split':
          return transaction('TX_STOCK_CLASS_SPLIT', '2024-07-01', {
            securityId: live.id,
            numerator: c.ratio[0],
            denominator: c.ratio[1],
            fractional: false,
            date: '2024-07-01',
            before: [],
          });
      }
    }

    const oneIssuance: Base = {
      issuances: [{ holder: 0, quantity: 100, day: 10 }],
      voided: undefined,
    };
    const voidedFirst: Base = {
      issuances: [
        { holder: 0, quantity: 100, day: 10 },
        { holder: 1, quantity: 200, day: 20 },
      ],
      voided: 0,
    };
    type Transfer = Omit<Extract<Candidate, { kind: 'transfer' }>, 'kind' | 'via'>;
    const transfers: [Base, Transfer][] = [
      [oneIssuance, { source: 0, to: 1, date: 'after', quantity: 'one' }],
      // The OCF import used to accept this one, which the route's service refused.
      [oneIssuance, { source: 0, to: 'same', date: 'after', quantity: 'one' }],
      [oneIssuance, { source: 0, to: 1, date: 'before', quantity: 'one' }],
      [oneIssuance, { source: 0, to: 1, date: 'same', quantity: 'zero' }],
      [oneIssuance, { source: 0, to: 1, date: 'after', quantity: 'negative' }],
      [oneIssuance, { source: 0, to: 1, date: 'after', quantity: 'oneMore' }],
      [oneIssuance, { source: 'unknown', to: 1, date: 'after', quantity: 'one' }],
      [voidedFirst, { source: 0, to: 2, date: 'after', quantity: 'one' }],
    ];
    /** The adversarial cases, each run every time (transfers both ways); random ones follow. */
    const examples: [Base, Candidate][] = [
      ...transfers.flatMap(([b, c]) =>
        (['writer', 'service'] as const).map((via): [Base, Candidate] => [
          b,
          { kind: 'transfer', ...c, via },
        ]),
      ),
      [oneIssuance, { kind: 'issuance', cls: 'live', quantity: 'unissued', legend: 'live' }],
      [oneIssuance, { kind: 'issuance', cls: 'live', quantity: 'oneMore', legend: 'none' }],
      [oneIssuance, { kind: 'issuance', cls: 'unknown', quantity: 'one', legend: 'none' }],
      [oneIssuance, { kind: 'issuance', cls: 'deleted', quantity: 'one', legend: 'none' }],
      [oneIssuance, { kind: 'issuance', cls: 'live', quantity: 'one', legend: 'unknown' }],
      [voidedFirst, { kind: 'cancellation', target: 0 }],
      [oneIssuance, { kind: 'amendment', target: 0, quantity: 'oneMore' }],
      [oneIssuance, { kind: 'split', ratio: ['1', '100000'] }],
    ];

    /**
     * A transfer as `POST .../shareholding/transfer` makes it once its body is validated. The
     * service answers a missing source in words of its own, so only the answer's status, key and
     * field are compared.
     */
    async function transferOutcome(table: CapTable, tx: LedgerTransaction): Promise<Outcome> {
      const p = tx.payload as TransactionPayloads['TX_STOCK_TRANSFER'];
      return outcomeOf(() =>
        shareholdings.transfer(table.owner, {
          shareholding: p.sourceId,
          toMember: p.toMemberId,
          quantity: p.quantity,
          date: p.date,
          pricePerShare: null,
        }),
      );
    }
    const answer = (o: Outcome) =>
      o === 'accepted' ? o : { status: o.status, key: o.key, field: o.field };

    it('the in-memory check and the write accept or refuse alike, with the same rule', async () => {
      const seen = new Set<string>();
      await fc.assert(
        fc.asyncProperty(base, candidate, async (b, c) => {
          const written = await writeBase(b);
          const org = written.table.organizationId;
          const log = await store.transactions(org);
          const state = replay(log);
          const tx = toTransaction(c, written, state);

          const checked = inMemoryOutcome(state, tx);
          if (c.kind === 'transfer' && c.via === 'service') {
            const wrote = await transferOutcome(written.table, tx);
            expect(answer(wrote)).toEqual(answer(checked));
          } else {
            expect(await writeOutcome(org, tx)).toEqual(checked);
          }
          seen.add(`${c.kind}:${checked === 'accepted' ? checked : checked.key}`);

          // A refusal wrote nothing; an acceptance wrote what a replay makes.
          const verified = await verifier.verify(org);
          expect(verified.transactions).toBe(log.length + (checked === 'accepted' ? 1 : 0));
          expect(verified.differences).toEqual([]);
          expect(verified.moveDifferences).toEqual([]);
        }),
        { ...FAST_CHECK, numRuns: 25 + examples.length, examples },
      );
      expect([...seen].sort()).toEqual(
        expect.arrayContaining([
          'amendment:insufficientShares',
          'cancellation:conflict',
          'issuance:accepted',
          'issuance:conflict',
          'issuance:insufficientShares',
          'issuance:notFound',
          'split:badRequest',
          'transfer:accepted',
          'transfer:badRequest',
          'transfer:conflict',
          'transfer:insufficientShares',
          'transfer:notFound',
        ]),
      );
    }, 180_000);
  });
});
