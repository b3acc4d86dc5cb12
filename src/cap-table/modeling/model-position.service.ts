import { Injectable } from '@nestjs/common';
import type Decimal from 'decimal.js';
import { LRUCache } from 'lru-cache';
import { toDecimal } from '../../../libs/cap-math';
import { AccessContext, DomainError } from '../../common';
import { Env } from '../../config';
import { OrganizationsDirectory } from '../../organizations';
import { available, outstanding, vestedQuantity } from '../ledger/incentive-rules';
import { CONVERTIBLE_TYPES, EXERCISABLE_TYPES, fractionOf } from '../ledger/incentive-types';
import { replayAsOf } from '../ledger/reducer';
import { LedgerStore } from '../ledger/ledger-store';
import type { HoldingState, SecurityState } from '../ledger/ledger-state';
import { today } from '../quantities';

const ZERO = toDecimal(0);

/** A grant or warrant that is still outstanding on the date. */
export interface ModelOption {
  holding: HoldingState;
  /** Granted less exercised and cancelled. */
  outstanding: Decimal;
  /** The part of `outstanding` vested on the date. */
  vested: Decimal;
  exercisePrice: Decimal;
}

/** A SAFE's or note's cap and discount as the models take them (the discount a fraction). */
export function capAndDiscount(h: HoldingState): { valuationCap?: string; discount?: string } {
  const t = h.terms;
  return {
    ...(t.valuationCap && { valuationCap: t.valuationCap }),
    ...(t.discount && toDecimal(t.discount).gt(0) && { discount: fractionOf(t.discount) }),
  };
}

/** What the models read of the cap table on one date. */
export interface ModelPosition {
  asOf: string;
  organizationName: string;
  /** Fractional shares (LLC units) instead of whole shares. */
  fractional: boolean;
  /** Live classes, most senior first. */
  classes: SecurityState[];
  /** Active shares by member, then by class (as issued, not as converted). */
  shares: Map<string, Map<string, Decimal>>;
  options: ModelOption[];
  /** Reserved and not granted, over the live plans' pools. */
  poolAvailable: Decimal;
  /** Active convertible notes and SAFEs. */
  convertibles: HoldingState[];
  /** Member names, for every member above. */
  names: Map<string, string>;
}

/** Positions kept, counted in holders, grants and convertibles (about 200 bytes each). */
const CACHE_RECORDS = 500_000;

/**
 * Loads the cap table a model starts from: as it stands today (from the current tables), or as
 * it stood on `asOf` (the log replayed to it), never a future date. Reads only: a model stores
 * nothing.
 *
 * Someone modeling a round tries many terms on one cap table, so the position is kept in process
 * (with `LIST_CACHE=on`), keyed by the organization, the date, the last entry of its log and the
 * organization's resource versions (read with the access decision and bumped by every write's
 * events, member renames included): any change to the cap table or its holders makes a new key.
 */
@Injectable()
export class ModelPositionService {
  private readonly cache?: LRUCache<string, ModelPosition>;

  constructor(
    private readonly store: LedgerStore,
    private readonly organizations: OrganizationsDirectory,
    env: Env,
  ) {
    if (env.LIST_CACHE === 'on') {
      this.cache = new LRUCache<string, ModelPosition>({
        maxSize: CACHE_RECORDS,
        sizeCalculation: (p) => 1 + p.shares.size + p.options.length + p.convertibles.length,
      });
    }
  }

  async position(access: AccessContext, asOf?: string): Promise<ModelPosition> {
    const organizationId = access.organizationId!;
    const date = asOf ?? today();
    if (date > today()) throw DomainError.badRequest('asOf must not be in the future');
    if (!this.cache) return this.load(organizationId, date);
    const versions = Object.entries(access.versions)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([resource, version]) => `${resource}:${version}`)
      .join(',');
    const key = `${organizationId}|${date}|${await this.store.lastSequence(organizationId)}|${versions}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const position = await this.load(organizationId, date);
    this.cache.set(key, position);
    return position;
  }

  private async load(organizationId: string, date: string): Promise<ModelPosition> {
    // Today's cap table from the current tables (the shares summed by PostgreSQL), unless the
    // log holds changes dated later; any other date from the log replayed to it.
    const fromTables =
      date === today() && !(await this.store.hasTransactionsAfter(organizationId, date));
    const [{ state, shareRows }, organization] = await Promise.all([
      fromTables ? this.fromTables(organizationId) : this.replayed(organizationId, date),
      this.organizations.organization(organizationId),
    ]);
    const classes = [...state.securities.values()]
      .filter((s) => !s.deleted)
      .sort((a, b) => b.seniority - a.seniority || (a.id < b.id ? -1 : 1));
    const live = new Set(classes.map((c) => c.id));

    const shares = new Map<string, Map<string, Decimal>>();
    for (const h of shareRows) {
      const quantity = toDecimal(h.quantity);
      if (!live.has(h.securityId) || !quantity.gt(0)) continue;
      const byClass = shares.get(h.memberId) ?? new Map<string, Decimal>();
      byClass.set(h.securityId, (byClass.get(h.securityId) ?? ZERO).plus(quantity));
      shares.set(h.memberId, byClass);
    }

    const options: ModelOption[] = [];
    const convertibles: HoldingState[] = [];
    for (const h of state.holdings.values()) {
      if (h.status !== 'active') continue;
      if (CONVERTIBLE_TYPES.has(h.type)) {
        convertibles.push(h);
        continue;
      }
      if (!EXERCISABLE_TYPES.has(h.type) || (h.terms.expirationDate ?? '9999-12-31') < date) {
        continue;
      }
      const left = outstanding(h);
      if (!left.gt(0)) continue;
      // Exercised shares came out of the vested part; a cancellation takes the unvested part
      // first (a leaver's unvested shares), so what is left vested is capped by what is left.
      const vested = vestedQuantity(state, h, date).minus(h.exercised);
      options.push({
        holding: h,
        outstanding: left,
        vested: vested.gt(0) ? (vested.gt(left) ? left : vested) : ZERO,
        exercisePrice: toDecimal(h.terms.exercisePrice ?? 0),
      });
    }
    const livePlans = new Set([...state.plans.values()].filter((p) => !p.deleted).map((p) => p.id));
    const poolAvailable = [...state.pools.values()]
      .filter((p) => !p.deleted && livePlans.has(p.planId))
      .reduce((total, p) => total.plus(available(p)), ZERO);

    const memberIds = new Set([
      ...shares.keys(),
      ...options.map((o) => o.holding.memberId),
      ...convertibles.map((c) => c.memberId),
    ]);
    const members = await this.organizations.membersById(organizationId, [...memberIds]);
    // A stable order, whichever way the state was loaded.
    const byId = (a: HoldingState, b: HoldingState) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    return {
      asOf: date,
      organizationName: organization?.name ?? '',
      fractional: organization?.type === 'llc',
      classes,
      shares,
      options: options.sort((a, b) => byId(a.holding, b.holding)),
      poolAvailable,
      convertibles: convertibles.sort(byId),
      names: new Map([...memberIds].map((id) => [id, members.get(id)?.name ?? ''])),
    };
  }

  private async fromTables(organizationId: string) {
    const { state, shares } = await this.store.modelState(organizationId);
    return { state, shareRows: shares };
  }

  private async replayed(organizationId: string, date: string) {
    const state = replayAsOf(await this.store.transactions(organizationId), date);
    const shareRows = [...state.shareholdings.values()]
      .filter((h) => h.status === 'active')
      .map((h) => ({ memberId: h.memberId, securityId: h.securityId, quantity: h.quantity }));
    return { state, shareRows };
  }
}
