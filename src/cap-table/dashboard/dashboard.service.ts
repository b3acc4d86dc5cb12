import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type Decimal from 'decimal.js';
import { In, Repository } from 'typeorm';
import {
  decimalSortKeys,
  fullyDiluted,
  ownershipPercentages,
  sum,
  toDecimal,
  toDecimalString,
} from '../../../libs/cap-math';
import { AccessContext, DomainError } from '../../common';
import { OrganizationsDirectory } from '../../organizations';
import { Holding } from '../holdings/holding.entity';
import { CONVERTIBLE_TYPES, EXERCISABLE_TYPES } from '../ledger/incentive-types';
import { available, outstanding } from '../ledger/incentive-rules';
import { toHoldingState } from '../ledger/incentive-store';
import { HoldingState } from '../ledger/ledger-state';
import { replayAsOf } from '../ledger/reducer';
import { asConvertedByHolder } from './dilution';
import { Dashboard } from './dashboard.view';
import { LedgerStore } from '../ledger/ledger-store';
import { today } from '../quantities';
import { Security } from '../securities/security.entity';
import { ValuationsService } from '../valuations/valuations.service';

/** Comparator of texts, larger first. */
const descending = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

interface Position {
  classes: { id: string; name: string; authorized: Decimal; issued: Decimal }[];
  /** Issued shares by holder. */
  holders: Map<string, Decimal>;
  /** Outstanding, unexpired grants and warrants by holder. */
  options: Map<string, Decimal>;
  poolAvailable: Decimal;
  convertibles: HoldingState[];
}

/** Grant and warrant types, as SQL. */
const OPTION_TYPES_SQL = [...EXERCISABLE_TYPES].map((t) => `'${t}'`).join(', ');

/**
 * The cap table at a glance: today's from the current tables (aggregated by PostgreSQL), or as it
 * stood on `asOf`, replayed from the log. Everyone who may view the organization sees the
 * totals and the classes; holder by holder only those whose role may view the whole cap table,
 * anyone else their own rows; the latest valuation only those who may view valuations.
 */
@Injectable()
export class DashboardService {
  constructor(
    @InjectRepository(Security) private readonly securities: Repository<Security>,
    @InjectRepository(Holding) private readonly holdings: Repository<Holding>,
    private readonly store: LedgerStore,
    private readonly valuations: ValuationsService,
    private readonly organizations: OrganizationsDirectory,
  ) {}

  async dashboard(access: AccessContext, asOf?: string): Promise<Dashboard> {
    const organizationId = access.organizationId!;
    const date = asOf ?? today();
    if (asOf && asOf > today()) throw DomainError.badRequest('asOf must not be in the future');
    // The current tables already hold transactions dated after today (a future issue date,
    // transfer or adjustment): today's cap table is then the replay as of today.
    const position =
      asOf || (await this.store.hasTransactionsAfter(organizationId, date))
        ? await this.replayed(organizationId, date)
        : await this.current(organizationId, date);
    const [organization, latestValuation] = await Promise.all([
      this.organizations.organization(organizationId),
      this.valuations.latest(organizationId, date),
    ]);
    const authorized = sum(position.classes.map((c) => c.authorized));
    const issued = sum(position.classes.map((c) => c.issued));
    const converted = asConvertedByHolder({
      issued,
      options: position.options,
      poolAvailable: position.poolAvailable,
      convertibles: position.convertibles,
      price: latestValuation?.pricePerShare ?? null,
      asOf: date,
      fractional: organization?.type === 'llc',
    });
    // Outstanding = issued until treasury shares exist; fully diluted adds outstanding grants and
    // warrants, the pools' available shares and the convertibles as converted.
    const diluted = fullyDiluted({
      issued,
      outstandingOptions: sum([...position.options.values()]),
      poolAvailable: position.poolAvailable,
      asConverted: sum([...converted.values()]),
    });
    const zero = toDecimal(0);
    const keys = new Set(
      [...position.holders, ...position.options, ...converted]
        .filter(([, n]) => n.gt(0))
        .map(([key]) => key),
    );
    // Largest holders first, then most shares fully diluted, then by member id: the decimals
    // compared exactly, through their sort keys.
    const keyList = [...keys];
    const shares = keyList.map((key) => position.holders.get(key) ?? zero);
    const dilutedShares = keyList.map((key, i) =>
      shares[i].plus(position.options.get(key) ?? zero).plus(converted.get(key) ?? zero),
    );
    const sharesKeys = decimalSortKeys(shares);
    const dilutedKeys = decimalSortKeys(dilutedShares);
    // Each row made once, with all its fields (no object spreads: 10,000 of them showed in the
    // profile).
    const rows = keyList
      .map((key, i) => ({
        key,
        shares: shares[i],
        dilutedShares: dilutedShares[i],
        sharesKey: sharesKeys[i],
        dilutedKey: dilutedKeys[i],
      }))
      .sort(
        (a, b) =>
          descending(a.sharesKey, b.sharesKey) ||
          descending(a.dilutedKey, b.dilutedKey) ||
          (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
      );
    const members = await this.organizations.membersById(organizationId, keyList);
    const percents = ownershipPercentages(rows);
    const dilutedPercents = ownershipPercentages([
      ...rows.map((r) => ({ key: r.key, shares: r.dilutedShares })),
      ...(position.poolAvailable.gt(0)
        ? [{ key: '(pool available)', shares: position.poolAvailable }]
        : []),
    ]);
    const seesAll = access.permissions.has('canViewCapitalizationOrSelf');
    const byHolder: Dashboard['byHolder'] = [];
    rows.forEach((r, i) => {
      const member = members.get(r.key);
      if (!seesAll && (member?.userId ?? null) !== access.userId) return;
      byHolder.push({
        member: r.key,
        name: member?.name ?? '',
        shares: toDecimalString(r.shares),
        percent: toDecimalString(percents[i].percent),
        fullyDilutedPercent: toDecimalString(dilutedPercents[i].percent),
      });
    });
    const classPercents = ownershipPercentages(
      position.classes.map((c) => ({ key: c.id, shares: c.issued })),
    );
    return {
      asOf: date,
      authorized: toDecimalString(authorized),
      issued: toDecimalString(issued),
      outstanding: toDecimalString(issued),
      fullyDiluted: toDecimalString(diluted.total),
      byHolder,
      byClass: position.classes.map((c, i) => ({
        security: c.id,
        name: c.name,
        authorized: toDecimalString(c.authorized),
        issued: toDecimalString(c.issued),
        percent: toDecimalString(classPercents[i].percent),
      })),
      // The valuation routes need canViewValuation: the dashboard shows no more than they do.
      // (The fully diluted figures still convert at its price, as for everyone.)
      latestValuation: access.permissions.has('canViewValuation') ? latestValuation : null,
    };
  }

  private async current(organizationId: string, date: string): Promise<Position> {
    const classes = await this.securities.find({
      where: { organizationId },
      order: { seniority: 'DESC', created: 'ASC' },
    });
    const holders = (await this.securities.query(
      `SELECT member_id, sum(quantity)::text AS shares FROM shareholding
       WHERE organization_id = $1 AND status = 'active' GROUP BY member_id`,
      [organizationId],
    )) as { member_id: string; shares: string }[];
    const options = (await this.securities.query(
      `SELECT member_id, sum(quantity - exercised - cancelled)::text AS shares FROM holding
       WHERE organization_id = $1 AND status = 'active' AND type IN (${OPTION_TYPES_SQL})
         AND coalesce(terms->>'expirationDate', '9999-12-31') >= $2
       GROUP BY member_id`,
      [organizationId, date],
    )) as { member_id: string; shares: string }[];
    const [pool] = (await this.securities.query(
      `SELECT coalesce(sum(p.shares_reserved - p.granted + p.returned), 0)::text AS available
       FROM stock_plan_pool p JOIN stock_plan pl ON pl.id = p.plan_id
       WHERE p.organization_id = $1 AND p.deleted_at IS NULL AND pl.deleted_at IS NULL`,
      [organizationId],
    )) as { available: string }[];
    const convertibles = await this.holdings.find({
      where: { organizationId, status: 'active', type: In(['convertible_note', 'safe']) },
      order: { created: 'ASC', id: 'ASC' },
    });
    return {
      classes: classes
        .filter((c) => c.deletedAt === null)
        .map((c) => ({
          id: c.id,
          name: c.name,
          authorized: toDecimal(c.authorizedShares),
          issued: toDecimal(c.issuedShares),
        })),
      holders: new Map(holders.map((h) => [h.member_id, toDecimal(h.shares)])),
      options: new Map(options.map((h) => [h.member_id, toDecimal(h.shares)])),
      poolAvailable: toDecimal(pool.available),
      convertibles: convertibles.map(toHoldingState),
    };
  }

  /** The log replayed as of a date (see replayAsOf). */
  private async replayed(organizationId: string, asOf: string): Promise<Position> {
    const state = replayAsOf(await this.store.transactions(organizationId), asOf);
    const holders = new Map<string, Decimal>();
    for (const h of state.shareholdings.values()) {
      if (h.status !== 'active') continue;
      holders.set(h.memberId, (holders.get(h.memberId) ?? toDecimal(0)).plus(h.quantity));
    }
    const classes = [...state.securities.values()]
      .filter((s) => !s.deleted)
      .sort((a, b) => b.seniority - a.seniority)
      .map((s) => ({ id: s.id, name: s.name, authorized: s.authorized, issued: s.issued }));
    const options = new Map<string, Decimal>();
    const convertibles: HoldingState[] = [];
    for (const h of state.holdings.values()) {
      if (h.status !== 'active') continue;
      if (CONVERTIBLE_TYPES.has(h.type)) convertibles.push(h);
      else if ((h.terms.expirationDate ?? '9999-12-31') >= asOf) {
        options.set(h.memberId, (options.get(h.memberId) ?? toDecimal(0)).plus(outstanding(h)));
      }
    }
    const livePlans = new Set([...state.plans.values()].filter((p) => !p.deleted).map((p) => p.id));
    const poolAvailable = sum(
      [...state.pools.values()]
        .filter((p) => !p.deleted && livePlans.has(p.planId))
        .map((p) => available(p)),
    );
    return { classes, holders, options, poolAvailable, convertibles };
  }
}
