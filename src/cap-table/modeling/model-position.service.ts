import { Injectable } from '@nestjs/common';
import type Decimal from 'decimal.js';
import { LRUCache } from 'lru-cache';
import { toDecimal } from '../../../libs/cap-math';
import { AccessContext, Clock, DomainError } from '../../common';
import { Env } from '../../config';
import { OrganizationsDirectory } from '../../organizations';
import { LedgerReader } from '../ledger/ledger-reader';
import type { HoldingState, SecurityState } from '../ledger/ledger-state';
import {
  activeConvertibles,
  liveClasses,
  outstandingOptions,
  poolAvailable,
  vestedOutstanding,
} from '../position/position';
import { PositionReader } from '../position/position-reader';

/** A grant or warrant that is still outstanding on the date. */
export interface ModelOption {
  holding: HoldingState;
  /** Granted less exercised and cancelled. */
  outstanding: Decimal;
  /** The part of `outstanding` vested on the date. */
  vested: Decimal;
  exercisePrice: Decimal;
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
 * Loads the cap table a model starts from: the position of today or `asOf` (never a future
 * date), with the models' order and the members' names. Reads only: a model stores nothing.
 *
 * Someone modeling a round tries many terms on one cap table, so the position is kept in process
 * (with `LIST_CACHE=on`), keyed by the organization, the date, the last entry of its log and the
 * organization's table versions (read with the access decision and bumped by the database at the
 * commit of every write, member renames included): any change to the cap table or its holders
 * makes a new key.
 */
@Injectable()
export class ModelPositionService {
  private readonly cache?: LRUCache<string, ModelPosition>;

  constructor(
    private readonly ledger: LedgerReader,
    private readonly positions: PositionReader,
    private readonly organizations: OrganizationsDirectory,
    env: Env,
    private readonly clock: Clock,
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
    const date = asOf ?? this.clock.today();
    if (date > this.clock.today()) throw DomainError.badRequest('asOf must not be in the future');
    if (!this.cache) return this.load(organizationId, date);
    const versions = Object.entries(access.versions)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([resource, version]) => `${resource}:${version}`)
      .join(',');
    const key = `${organizationId}|${date}|${await this.ledger.lastSequence(organizationId)}|${versions}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const position = await this.load(organizationId, date);
    this.cache.set(key, position);
    return position;
  }

  private async load(organizationId: string, date: string): Promise<ModelPosition> {
    const [position, organization] = await Promise.all([
      this.positions.positionAsOf(organizationId, date),
      this.organizations.organization(organizationId),
    ]);
    // Classes of one seniority by id, convertibles and options by id: a stable order, whichever
    // way the position was read.
    const classes = liveClasses(position).sort(
      (a, b) => b.seniority - a.seniority || (a.id < b.id ? -1 : 1),
    );
    const options: ModelOption[] = outstandingOptions(position).map((o) => ({
      holding: o.holding,
      outstanding: o.outstanding,
      vested: vestedOutstanding(position, o.holding),
      exercisePrice: toDecimal(o.holding.terms.exercisePrice ?? 0),
    }));
    const convertibles = activeConvertibles(position);
    const memberIds = new Set([
      ...position.shares.keys(),
      ...options.map((o) => o.holding.memberId),
      ...convertibles.map((c) => c.memberId),
    ]);
    const members = await this.organizations.membersById(organizationId, [...memberIds]);
    const byId = (a: HoldingState, b: HoldingState) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    return {
      asOf: date,
      organizationName: organization?.name ?? '',
      fractional: organization?.type === 'llc',
      classes,
      shares: position.shares,
      options: options.sort((a, b) => byId(a.holding, b.holding)),
      poolAvailable: poolAvailable(position),
      convertibles: convertibles.sort(byId),
      names: new Map([...memberIds].map((id) => [id, members.get(id)?.name ?? ''])),
    };
  }
}
