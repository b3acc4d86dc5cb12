import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type Decimal from 'decimal.js';
import {
  compareDates,
  DAY_COUNT_CONVENTIONS,
  PERIOD_TYPES,
  toDecimal,
  toDecimalString,
  type DayCountConvention,
  type PeriodType,
} from '../../../libs/cap-math';
import {
  exercisable,
  interestOwed,
  outstanding,
  vestedQuantity,
} from '../ledger/incentives/holding-figures';
import { toHoldingState, toScheduleState } from '../ledger/incentive-store';
import type { ConversionRecord, GrantType, HoldingStatus } from '../ledger/incentive-types';
import { GRANT_TYPES, isGrantType } from '../ledger/incentive-types';
import { emptyState, LedgerRuleError, type HoldingState } from '../ledger/ledger-state';
import type { ShareholdingView } from '../shareholdings/shareholding.view';
import { DateView, DecimalView, TimestampView, UuidView } from '../view-fields';
import type { VestingScheduleEntity } from '../vesting-schedules/vesting-schedule.entity';
import { INTEREST_TYPES, SAFE_TYPES, TERMINATION_REASONS } from './holding.dto';
import type { Holding } from './holding.entity';

/** `expired` is not stored: an active grant or warrant past its expiration date shows it. */
export type HoldingStatusView = HoldingStatus | 'expired';

/** The statuses a grant or warrant shows. */
export const EXERCISABLE_STATUSES = ['active', 'exercised', 'cancelled', 'expired'] as const;
export type ExercisableStatus = (typeof EXERCISABLE_STATUSES)[number];
export const NOTE_STATUSES = ['active', 'repaid', 'converted', 'cancelled'] as const;
export const SAFE_STATUSES = ['active', 'converted', 'cancelled'] as const;
const CONVERSION_METHODS = ['cap', 'discount', 'price'] as const;

/** What a note or SAFE became (null until converted). */
export class ConversionView {
  /** The date of the financing. */
  @DateView() date: string;
  /** The shareholding the conversion issued. */
  @UuidView() shareholding: string;
  /** The class it converted into. */
  @UuidView() security: string;
  /** Shares issued: whole, rounded down, unless the organization is an LLC. */
  @DecimalView({ example: '89730' }) shares: string;
  /** The price per share it converted at. */
  @DecimalView({ example: '0.8915' }) conversionPrice: string;
  /** Which price applied: the cap's, the round's less the discount, or the round's. */
  @ApiProperty({ enum: CONVERSION_METHODS })
  method: (typeof CONVERSION_METHODS)[number];
  /** What converted: a SAFE's amount, a note's outstanding principal plus interest owed. */
  @DecimalView({ example: '100000' }) conversionAmount: string;
  /** The round's price per share. */
  @DecimalView({ example: '1.1144' }) roundPricePerShare: string;
  /** As recorded with the conversion (not used to compute it). */
  @DecimalView({ example: '15000000', nullable: true }) preMoneyValuation: string | null;
}

/** How long after the end of service a grant can still be exercised (OCF TerminationWindow). */
export class TerminationWindowView {
  @ApiProperty({ enum: TERMINATION_REASONS })
  reason: (typeof TERMINATION_REASONS)[number];
  @ApiProperty({ type: 'integer', example: 90 }) period: number;
  @ApiProperty({ enum: PERIOD_TYPES }) periodType: PeriodType;
}

/** What every holding shows; its `type` and `status` are its class's. */
export class HoldingBaseView {
  @UuidView() id: string;
  @UuidView() organization: string;
  /** The holder: a member of the organization. */
  @UuidView() member: string;
  @TimestampView() created: string;
  @TimestampView() updated: string;
}

/** Exercised into shares: option grants, RSUs and SARs (from a plan pool) and warrants. */
export class ExercisableHoldingView extends HoldingBaseView {
  /** `expired`: active, and past its expiration date today. */
  @ApiProperty({ enum: EXERCISABLE_STATUSES }) status: ExercisableStatus;
  /** The class it is exercised into (the plan's for grants). */
  @UuidView() security: string;
  /** Shares granted (whole unless the organization is an LLC). */
  @DecimalView({ example: '4800' }) quantity: string;
  /** Per share; null only for an RSU granted without one. */
  @DecimalView({ example: '0.25', nullable: true }) exercisePrice: string | null;
  @DateView() grantDate: string;
  @DateView({ nullable: true }) expirationDate: string | null;
  @DecimalView({ example: '0' }) exercised: string;
  @DecimalView({ example: '0' }) cancelled: string;
  /** Granted, neither exercised nor cancelled. */
  @DecimalView({ example: '4800' }) outstanding: string;
  /** What an exercise dated today may take: 0 unless active and not expired. */
  @DecimalView({ example: '1200' }) exercisable: string;
}

/** An option grant (ISO, NSO or plain), RSU or SAR of a plan pool. */
export class GrantView extends ExercisableHoldingView {
  @ApiProperty({ enum: GRANT_TYPES }) type: GrantType;
  @UuidView() plan: string;
  /** The plan's pool it was granted from. */
  @UuidView() pool: string;
  /** The vesting schedule version it vests by; null: vested at once. */
  @UuidView({ nullable: true }) vestingSchedule: string | null;
  /** When vesting starts (default the grant date). */
  @DateView({ nullable: true }) vestingStartDate: string | null;
  /** Unvested shares may be exercised. */
  earlyExercisable: boolean;
  /** Exercise windows after the end of service, one per reason. */
  terminationExerciseWindows: TerminationWindowView[];
  /** Vested as of today (all of it without a schedule). */
  @DecimalView({ example: '1200' }) vested: string;
}

/** A warrant: shares of a class at an exercise price. */
export class WarrantView extends ExercisableHoldingView {
  @ApiProperty({ enum: ['warrant'] }) type: 'warrant';
}

/** Converted into shares in a priced round: convertible notes and SAFEs. */
export class ConvertibleHoldingView extends HoldingBaseView {
  /** ISO 4217. */
  @ApiProperty({ example: 'USD' }) currency: string;
  @DateView() issueDate: string;
  /** In money (post-money for a post-money SAFE); null: no cap. */
  @DecimalView({ example: '4000000', nullable: true }) valuationCap: string | null;
  /** Percent off the round price (`"20"` for 20%); null: none. */
  @DecimalView({ example: '20', nullable: true }) discount: string | null;
  /** What it converted into; null until converted. */
  @ApiProperty({ type: ConversionView, nullable: true }) conversion: ConversionView | null;
}

/** A convertible note: principal lent at interest, repaid or converted. */
export class NoteView extends ConvertibleHoldingView {
  @ApiProperty({ enum: ['convertible_note'] }) type: 'convertible_note';
  @ApiProperty({ enum: NOTE_STATUSES }) status: (typeof NOTE_STATUSES)[number];
  @DecimalView({ example: '100000' }) principal: string;
  /** Percent a year (`"6"` for 6%). */
  @DecimalView({ example: '6' }) interestRate: string;
  @ApiProperty({ enum: INTEREST_TYPES }) interestType: (typeof INTEREST_TYPES)[number];
  @ApiProperty({ enum: DAY_COUNT_CONVENTIONS }) dayCount: DayCountConvention;
  @DateView() maturityDate: string;
  /** Principal not yet repaid. */
  @DecimalView({ example: '100000' }) principalOutstanding: string;
  /** Interest owed as of today (accrued and unpaid), to 10 decimal places; 0 unless active. */
  @DecimalView({ example: '1643.8356164384' }) accruedInterest: string;
  @DecimalView({ example: '0' }) interestPaid: string;
}

/** A SAFE (simple agreement for future equity). */
export class SafeView extends ConvertibleHoldingView {
  @ApiProperty({ enum: ['safe'] }) type: 'safe';
  @ApiProperty({ enum: SAFE_STATUSES }) status: (typeof SAFE_STATUSES)[number];
  /** The purchase amount. */
  @DecimalView({ example: '100000' }) amount: string;
  @ApiProperty({ enum: SAFE_TYPES }) safeType: (typeof SAFE_TYPES)[number];
  /** Most favoured nation clause. */
  mfn: boolean;
  /** Pro rata rights. */
  proRata: boolean;
}

export type HoldingView = GrantView | WarrantView | NoteView | SafeView;

/**
 * A holding in the OpenAPI document: one of the four views, told apart by `type` (their `type`
 * enums do not overlap, so exactly one matches). Routes that answer holdings of every type use it;
 * `@ApiExtraModels(...HOLDING_VIEWS)` puts the four in the document.
 */
export const HOLDING_VIEWS = [GrantView, WarrantView, NoteView, SafeView];
export const HOLDING_VIEW_SCHEMA = {
  description:
    'A holding: one schema per type, told apart by `type` (option grants, RSUs and SARs: ' +
    '`GrantView`; `WarrantView`; `NoteView`; `SafeView`)',
  oneOf: HOLDING_VIEWS.map((view) => ({ $ref: getSchemaPath(view) })),
  discriminator: {
    propertyName: 'type',
    mapping: {
      ...Object.fromEntries(GRANT_TYPES.map((t) => [t, getSchemaPath(GrantView)])),
      warrant: getSchemaPath(WarrantView),
      convertible_note: getSchemaPath(NoteView),
      safe: getSchemaPath(SafeView),
    },
  },
};

/** The organization of a portfolio entry. */
export class PortfolioOrganizationView {
  @UuidView() id: string;
  name: string;
}

/** One organization's part of an entity's portfolio. */
export class PortfolioEntry {
  organization: PortfolioOrganizationView;
  /** The entity's member record in it. */
  @UuidView() member: string;
  /** Its active shareholdings. */
  shareholdings: ShareholdingView[];
  /** Its holdings of every status (the status says which are current). */
  @ApiProperty({ type: 'array', items: HOLDING_VIEW_SCHEMA })
  holdings: HoldingView[];
}

/** `POST /v1/holding/:holding/convert`: the converted note or SAFE and the shareholding issued. */
export class ConvertedView {
  /** The note or SAFE, now `converted`. */
  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(NoteView) }, { $ref: getSchemaPath(SafeView) }] })
  holding: HoldingView;
  shareholding: ShareholdingView;
}

type Common = Omit<HoldingBaseView, never>;
type ExercisableFields = Omit<ExercisableHoldingView, keyof HoldingBaseView | 'status'>;
type ConvertibleFields = Omit<ConvertibleHoldingView, keyof HoldingBaseView>;

/** The ledger's scale: money figures computed at full precision are shown to 10 places. */
const SCALE = 10;
const text = (d: Decimal) => toDecimalString(d.toDecimalPlaces(SCALE));
const decimal = (v: string | null | undefined) =>
  v === null || v === undefined ? null : toDecimalString(toDecimal(v));
const ZERO = toDecimal(0);

/**
 * A holding as the API shows it: its terms and the figures the reducer computes from them, as
 * of `today` (vesting by the version of the schedule the grant was made with, a note's interest
 * owed). `schedule` is the grant's vesting schedule row, if it has one.
 */
export function toHoldingView(
  h: Holding,
  schedule: VestingScheduleEntity | null,
  today: string,
): HoldingView {
  const state = toHoldingState(h);
  const common: Common = {
    id: h.id,
    organization: h.organizationId,
    member: h.memberId,
    created: h.created.toISOString(),
    updated: h.updated.toISOString(),
  };
  if (isGrantType(h.type) || h.type === 'warrant') {
    return exercisableView(common, h, state, schedule, today);
  }
  const t = state.terms;
  const convertible: ConvertibleFields = {
    currency: t.currency ?? '',
    issueDate: t.issueDate ?? '',
    valuationCap: decimal(t.valuationCap),
    discount: decimal(t.discount),
    conversion: conversionView(state.conversion),
  };
  if (h.type === 'safe') {
    return {
      ...common,
      type: 'safe',
      status: h.status as SafeView['status'],
      amount: decimal(t.amount) ?? '0',
      safeType: t.safeType ?? 'post_money',
      mfn: t.mfn ?? false,
      proRata: t.proRata ?? false,
      ...convertible,
    };
  }
  const owed = state.status === 'active' ? interestOwed(state, today, false) : ZERO;
  return {
    ...common,
    type: 'convertible_note',
    status: h.status as NoteView['status'],
    principal: decimal(t.principal) ?? '0',
    interestRate: decimal(t.interestRate) ?? '0',
    interestType: t.interestType ?? 'simple',
    dayCount: t.dayCount ?? 'actual/365',
    maturityDate: t.maturityDate ?? '',
    principalOutstanding: text(state.principalOutstanding ?? ZERO),
    accruedInterest: text(owed),
    interestPaid: text(state.interestPaid),
    ...convertible,
  };
}

function exercisableView(
  common: Common,
  h: Holding,
  holding: HoldingState,
  schedule: VestingScheduleEntity | null,
  today: string,
): GrantView | WarrantView {
  const { terms } = holding;
  const expired =
    holding.status === 'active' &&
    !!terms.expirationDate &&
    compareDates(today, terms.expirationDate) > 0;
  const state = emptyState();
  if (schedule) state.schedules.set(schedule.id, toScheduleState(schedule));
  // A grant whose schedule row is missing (or cannot allocate its quantity) cannot be computed:
  // nothing is shown vested rather than failing every list it is in.
  const computable = !holding.vestingScheduleId || !!schedule;
  const vested = computable ? orZero(() => vestedQuantity(state, holding, today)) : ZERO;
  const canExercise =
    !computable || expired || (terms.grantDate && compareDates(today, terms.grantDate) < 0)
      ? ZERO
      : orZero(() => exercisable(state, holding, today));
  const fields: ExercisableFields = {
    security: h.securityId ?? '',
    quantity: toDecimalString(holding.quantity ?? ZERO),
    exercisePrice: decimal(terms.exercisePrice),
    grantDate: terms.grantDate ?? '',
    expirationDate: terms.expirationDate ?? null,
    exercised: toDecimalString(holding.exercised),
    cancelled: toDecimalString(holding.cancelled),
    outstanding: toDecimalString(outstanding(holding)),
    exercisable: toDecimalString(canExercise),
  };
  const status = (expired ? 'expired' : holding.status) as ExercisableStatus;
  if (h.type === 'warrant') return { ...common, type: 'warrant', status, ...fields };
  return {
    ...common,
    type: h.type as GrantType,
    status,
    plan: h.planId ?? '',
    pool: h.poolId ?? '',
    ...fields,
    vestingSchedule: h.vestingScheduleId,
    vestingStartDate: terms.vestingStartDate ?? terms.grantDate ?? null,
    earlyExercisable: terms.earlyExercisable ?? false,
    // Reasons are OCF TerminationWindowTypes: the DTO and the OCF import both check them.
    terminationExerciseWindows: (terms.terminationExerciseWindows ?? []) as TerminationWindowView[],
    vested: toDecimalString(vested),
  };
}

function orZero(compute: () => Decimal): Decimal {
  try {
    return compute();
  } catch (err) {
    if (err instanceof LedgerRuleError) return ZERO;
    throw err;
  }
}

const conversionView = (c: ConversionRecord | null): ConversionView | null =>
  c && {
    date: c.date,
    shareholding: c.shareholdingId,
    security: c.securityId,
    shares: c.shares,
    conversionPrice: c.conversionPrice,
    method: c.method,
    conversionAmount: c.conversionAmount,
    roundPricePerShare: c.roundPricePerShare,
    preMoneyValuation: c.preMoneyValuation,
  };
