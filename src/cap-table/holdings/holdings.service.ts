import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CapMathError, compareDates, toDecimalString, vestedOn } from '../../../libs/cap-math';
import { AccessContext, Clock, DomainError, OrganizationInContext } from '../../common';
import { previousAttributes } from '../../events';
import { OrganizationsDirectory } from '../../organizations';
import { outstanding, toVestingSchedule } from '../ledger/incentives/holding-figures';
import {
  isGrantType,
  type HoldingAmendment,
  type HoldingRecord,
  type HoldingTerms,
  type HoldingType,
} from '../ledger/incentive-types';
import type { LedgerScope } from '../ledger/ledger-store';
import { LedgerChange, LedgerWriter } from '../ledger/ledger-writer';
import type { HoldingState } from '../ledger/ledger-state';
import { AmendHoldingDto, CreateHoldingDto } from './holding.dto';
import { assertActive, holdingEvent, label, lockedHolding, show, sizeOf } from './holding-events';
import {
  assertApplicable,
  assertConsistent,
  assertRequired,
  FIXED_FIELDS,
  patchedTerms,
  termsFrom,
} from './holding-fields';
import { HoldingReadsService } from './holding-reads.service';
import type { HoldingView } from './holding.view';

/** Terms a note's repayments were computed with: fixed once it has any. */
const INTEREST_TERMS: (keyof HoldingTerms)[] = [
  'principal',
  'interestRate',
  'interestType',
  'dayCount',
  'issueDate',
];

/**
 * Granting, amending and cancelling holdings (option grants, RSUs, SARs, warrants, convertible
 * notes and SAFEs). Each change is one transaction of the log applied by the reducer under the
 * locks of what it reads (the plan and its pools, the class, the holding): a grant never takes
 * more than its pool has available, an amended quantity never drops below what was exercised or
 * cancelled.
 */
@Injectable()
export class HoldingsService {
  constructor(
    private readonly ledger: LedgerWriter,
    private readonly organizations: OrganizationsDirectory,
    private readonly reads: HoldingReadsService,
    private readonly clock: Clock,
  ) {}

  async create(access: AccessContext, dto: CreateHoldingDto): Promise<HoldingView> {
    const organization = access.organization!;
    const type = dto.type;
    assertApplicable(type, dto);
    assertRequired(type, dto);
    const terms = termsFrom(type, dto, organization);
    assertConsistent(type, terms);
    const grant = isGrantType(type);
    const record: HoldingRecord = {
      id: randomUUID(),
      memberId: dto.member,
      type,
      planId: grant ? dto.plan! : null,
      poolId: grant ? dto.pool! : null,
      securityId: type === 'warrant' ? dto.security! : null,
      vestingScheduleId: grant ? (dto.vestingSchedule ?? null) : null,
      terms,
    };
    const scope: LedgerScope = grant
      ? {
          plans: [record.planId!],
          pools: [record.poolId!],
          schedules: record.vestingScheduleId ? [record.vestingScheduleId] : [],
        }
      : type === 'warrant'
        ? { securities: [record.securityId!] }
        : {};
    const member = await this.organizations.member(organization.id, dto.member);
    return this.ledger.change(organization.id, access.userId, scope, async (c) => {
      if (grant) {
        const plan = c.state.plans.get(record.planId!);
        if (!plan || plan.deleted) throw DomainError.notFound('no such plan');
        const pool = c.state.pools.get(record.poolId!);
        if (!pool || pool.deleted || pool.planId !== plan.id) {
          throw DomainError.notFound(`pool is not a pool of plan ${plan.name}`);
        }
        // A grant becomes shares of its plan's class.
        record.securityId = plan.securityId;
        this.assertSchedule(c, record.vestingScheduleId, plan.id, terms);
      } else if (type === 'warrant') {
        const security = c.state.securities.get(record.securityId!);
        if (!security || security.deleted) throw DomainError.notFound('no such class');
      }
      await c.apply(issuanceOf(type), (terms.grantDate ?? terms.issueDate)!, { holding: record });
      const view = await this.reads.get(record.id, c.tx);
      await c.record(
        holdingEvent(
          'holding.created',
          access,
          view,
          `${label(type)} of ${sizeOf(view)} to ${member?.name ?? 'a member'}`,
        ),
      );
      return view;
    });
  }

  /** PATCH (`replace` false) or PUT (`replace` true) of the editable terms of an active holding. */
  async amend(
    access: AccessContext,
    id: string,
    dto: AmendHoldingDto,
    replace: boolean,
  ): Promise<HoldingView> {
    const organization = access.organization!;
    const scope: LedgerScope = {
      holdings: [id],
      schedules: dto.vestingSchedule ? [dto.vestingSchedule] : [],
    };
    return this.ledger.change(organization.id, access.userId, scope, async (c) => {
      const h = lockedHolding(c, id);
      assertActive(h);
      this.assertFixed(h, dto, organization.id);
      assertApplicable(h.type, dto);
      const wanted = this.wantedTerms(h, dto, replace, organization);
      assertConsistent(h.type, wanted);
      const changes: HoldingAmendment = {};
      const terms = changedTerms(h.terms, wanted);
      if (Object.keys(terms).length) changes.terms = terms;
      if (isGrantType(h.type)) {
        const schedule = replace
          ? (dto.vestingSchedule ?? null)
          : dto.vestingSchedule === undefined
            ? h.vestingScheduleId
            : dto.vestingSchedule;
        if (schedule !== h.vestingScheduleId) changes.vestingScheduleId = schedule;
        if (changes.vestingScheduleId !== undefined || terms.quantity || terms.vestingStartDate) {
          this.assertSchedule(c, schedule, h.planId!, wanted);
        }
      }
      if (h.type === 'convertible_note' && hasRepayments(h)) {
        const fixed = INTEREST_TERMS.filter((k) => k in terms);
        if (fixed.length) {
          throw DomainError.conflict(
            `the ${fixed.join(', ')} of a note with repayments cannot change (its interest was computed with them)`,
          );
        }
      }
      const before = await this.reads.get(id, c.tx);
      if (!Object.keys(changes).length) return before;
      await c.apply('HOLDING_AMENDED', this.clock.today(), { holdingId: id, changes });
      const after = await this.reads.get(id, c.tx);
      const previous = previousAttributes(before, { ...after, updated: before.updated });
      const described = Object.keys(previous).map(
        (k) =>
          `${k} ${show(before[k as keyof HoldingView])} -> ${show(after[k as keyof HoldingView])}`,
      );
      await c.record(
        holdingEvent(
          'holding.updated',
          access,
          after,
          `${label(h.type)} ${id}: ${described.join('; ')}`,
          previous,
        ),
      );
      return after;
    });
  }

  /**
   * DELETE: the holding is cancelled (soft; it stays with status `cancelled`). A grant's
   * outstanding shares go back to its pool or leave the plan, as the plan's
   * defaultCancellationBehavior says. Answers the holding as it now stands (status `cancelled`).
   */
  async cancel(access: AccessContext, id: string): Promise<HoldingView> {
    const organizationId = access.organizationId!;
    return this.ledger.change(organizationId, access.userId, { holdings: [id] }, async (c) => {
      const h = lockedHolding(c, id);
      assertActive(h);
      const date = this.clock.today();
      const reason = 'cancelled';
      let returned = '';
      if (isGrantType(h.type)) {
        const plan = c.state.plans.get(h.planId!);
        const returnedToPool = plan?.defaultCancellationBehavior !== 'retire';
        returned = returnedToPool ? ', returned to its pool' : ', retired from the plan';
        await c.apply('TX_EQUITY_COMPENSATION_CANCELLATION', date, {
          holdingId: id,
          quantity: toDecimalString(outstanding(h)),
          returnedToPool,
          reason,
        });
      } else if (h.type === 'warrant') {
        await c.apply('TX_WARRANT_CANCELLATION', date, {
          holdingId: id,
          quantity: toDecimalString(outstanding(h)),
          reason,
        });
      } else {
        await c.apply('TX_CONVERTIBLE_CANCELLATION', date, { holdingId: id, reason });
      }
      const view = await this.reads.get(id, c.tx);
      const outstandingShares =
        'outstanding' in view ? ` (${view.cancelled} outstanding shares${returned})` : '';
      await c.record(
        holdingEvent(
          'holding.deleted',
          access,
          view,
          `${label(h.type)} ${id}: cancelled${outstandingShares}`,
        ),
      );
      return view;
    });
  }

  private wantedTerms(
    h: HoldingState,
    dto: AmendHoldingDto,
    replace: boolean,
    organization: OrganizationInContext,
  ): HoldingTerms {
    if (!replace) return patchedTerms(h.type, h.terms, dto, organization);
    // PUT: the fixed references are the holding's own; everything else as sent.
    const full = {
      ...dto,
      plan: h.planId ?? undefined,
      pool: h.poolId ?? undefined,
      security: h.securityId ?? undefined,
    };
    if (!isGrantType(h.type)) full.plan = full.pool = undefined;
    if (h.type !== 'warrant') full.security = undefined;
    assertRequired(h.type, full);
    return termsFrom(h.type, full, organization);
  }

  /** The holder, type, plan, pool and class identify a holding: accepted only unchanged. */
  private assertFixed(h: HoldingState, dto: AmendHoldingDto, organizationId: string) {
    const current: Record<string, string | null> = {
      organization: organizationId,
      member: h.memberId,
      type: h.type,
      plan: h.planId,
      pool: h.poolId,
      security: h.securityId,
    };
    const changed = ['organization', 'member', 'type', ...FIXED_FIELDS].filter(
      (f) =>
        dto[f as keyof AmendHoldingDto] !== undefined &&
        dto[f as keyof AmendHoldingDto] !== current[f] &&
        // A grant's class is its plan's: not a field of grants at all (assertApplicable says so).
        !(f === 'security' && isGrantType(h.type)),
    );
    if (changed.length) {
      throw DomainError.badRequest(
        `${changed.join(', ')} of a holding cannot change (cancel it and create another)`,
      );
    }
  }

  /**
   * A grant's schedule must be one of the organization's (a plan's own only for that plan) and
   * able to allocate the quantity (whole-share allocation types need a whole quantity).
   */
  private assertSchedule(
    c: LedgerChange,
    scheduleId: string | null,
    planId: string,
    terms: HoldingTerms,
  ) {
    if (!scheduleId) return;
    const v = c.state.schedules.get(scheduleId);
    if (!v || v.deleted) throw DomainError.notFound('no such vesting schedule');
    if (v.planId && v.planId !== planId) {
      throw DomainError.badRequest('vestingSchedule is a schedule of another plan', {
        body: { field: 'vestingSchedule' },
      });
    }
    try {
      // The checks the schedule's expansion makes, without building its events.
      const start = terms.vestingStartDate ?? terms.grantDate!;
      vestedOn(
        { schedule: toVestingSchedule(v), quantity: terms.quantity!, vestingStartDate: start },
        start,
      );
    } catch (err) {
      if (!(err instanceof CapMathError)) throw err;
      throw DomainError.badRequest(`vestingSchedule ${v.name}: ${err.message}`, {
        body: { field: grantField(err.field, terms) },
      });
    }
  }
}

const issuanceOf = (type: HoldingType) =>
  isGrantType(type)
    ? ('TX_EQUITY_COMPENSATION_ISSUANCE' as const)
    : type === 'warrant'
      ? ('TX_WARRANT_ISSUANCE' as const)
      : ('TX_CONVERTIBLE_ISSUANCE' as const);

/** The terms of `wanted` that differ from the current ones. */
function changedTerms(current: HoldingTerms, wanted: HoldingTerms): HoldingTerms {
  return Object.fromEntries(
    Object.entries(wanted).filter(
      ([k, v]) =>
        JSON.stringify(current[k as keyof HoldingTerms] ?? null) !== JSON.stringify(v ?? null),
    ),
  ) as HoldingTerms;
}

/** A note whose interest was paid or principal repaid (or accrual moved past its issue date). */
const hasRepayments = (h: HoldingState) =>
  h.interestPaid.gt(0) ||
  !h.principalOutstanding?.eq(h.terms.principal ?? 0) ||
  (h.accruedThrough !== null &&
    h.terms.issueDate !== undefined &&
    compareDates(h.accruedThrough, h.terms.issueDate) !== 0);

/**
 * The grant's field a cap-math error about its vesting is about: its quantity, its vesting start
 * (the grant date when it has none), else the schedule's terms.
 */
function grantField(field: string, terms: HoldingTerms): string {
  if (field === 'quantity') return 'quantity';
  if (field === 'vestingStartDate') {
    return terms.vestingStartDate ? 'vestingStartDate' : 'grantDate';
  }
  return 'vestingSchedule';
}
