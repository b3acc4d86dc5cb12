import { Injectable } from '@nestjs/common';
import type Decimal from 'decimal.js';
import {
  decimalSortKeys,
  fullyDiluted,
  ownershipPercentages,
  sum,
  toDecimal,
  toDecimalString,
} from '../../../libs/cap-math';
import { AccessContext, Clock, DomainError } from '../../common';
import { OrganizationsDirectory } from '../../organizations';
import { PositionReader } from '../position/position-reader';
import {
  liveClasses,
  outstandingOptions,
  poolAvailable,
  sharesByMember,
} from '../position/position';
import { asConvertedByHolder } from './dilution';
import { Dashboard } from './dashboard.view';
import { ValuationsService } from '../valuations/valuations.service';

/** Comparator of texts, larger first. */
const descending = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

/**
 * The cap table at a glance, as of today or `asOf` (the position: the current tables, or the
 * ledger's moves up to the date when the log holds anything later). Everyone who may view the organization sees the
 * totals and the classes; holder by holder only those whose role may view the whole cap table,
 * anyone else their own rows; the latest valuation only those who may view valuations.
 */
@Injectable()
export class DashboardService {
  constructor(
    private readonly positions: PositionReader,
    private readonly valuations: ValuationsService,
    private readonly organizations: OrganizationsDirectory,
    private readonly clock: Clock,
  ) {}

  async dashboard(access: AccessContext, asOf?: string): Promise<Dashboard> {
    const organizationId = access.organizationId!;
    const date = asOf ?? this.clock.today();
    if (asOf && asOf > this.clock.today())
      throw DomainError.badRequest('asOf must not be in the future');
    // Independent reads, together (each on a connection of the pool).
    const [position, latestValuation] = await Promise.all([
      this.positions.positionAsOf(organizationId, date),
      this.valuations.latest(organizationId, date),
    ]);
    const organization = access.organization;
    const classes = liveClasses(position);
    const holders = sharesByMember(position);
    const options = new Map<string, Decimal>();
    for (const o of outstandingOptions(position)) {
      const member = o.holding.memberId;
      options.set(member, (options.get(member) ?? toDecimal(0)).plus(o.outstanding));
    }
    const pool = poolAvailable(position);
    const authorized = sum(classes.map((c) => c.authorized));
    const issued = sum(classes.map((c) => c.issued));
    const converted = asConvertedByHolder(
      position,
      latestValuation?.pricePerShare ?? null,
      organization?.type === 'llc',
    );
    // Outstanding = issued until treasury shares exist; fully diluted adds outstanding grants and
    // warrants, the pools' available shares and the convertibles as converted.
    const diluted = fullyDiluted({
      issued,
      outstandingOptions: sum([...options.values()]),
      poolAvailable: pool,
      asConverted: sum([...converted.values()]),
    });
    const zero = toDecimal(0);
    const keys = new Set(
      [...holders, ...options, ...converted].filter(([, n]) => n.gt(0)).map(([key]) => key),
    );
    // Largest holders first, then most shares fully diluted, then by member id: the decimals
    // compared exactly, through their sort keys.
    const keyList = [...keys];
    const shares = keyList.map((key) => holders.get(key) ?? zero);
    const dilutedShares = keyList.map((key, i) =>
      shares[i].plus(options.get(key) ?? zero).plus(converted.get(key) ?? zero),
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
      ...(pool.gt(0) ? [{ key: '(pool available)', shares: pool }] : []),
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
      classes.map((c) => ({ key: c.id, shares: c.issued })),
    );
    return {
      asOf: date,
      authorized: toDecimalString(authorized),
      issued: toDecimalString(issued),
      outstanding: toDecimalString(issued),
      fullyDiluted: toDecimalString(diluted.total),
      byHolder,
      byClass: classes.map((c, i) => ({
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
}
