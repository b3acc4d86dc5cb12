import type Decimal from 'decimal.js';
import { compareDates, toDecimal, toDecimalString } from '../../../libs/cap-math';
import { exercisable, interestOwed, outstanding, vestedQuantity } from '../ledger/incentive-rules';
import { toHoldingState, toScheduleState } from '../ledger/incentive-store';
import type {
  ConversionRecord,
  HoldingStatus,
  HoldingType,
  TerminationWindow,
} from '../ledger/incentive-types';
import { isGrantType } from '../ledger/incentive-types';
import { emptyState, LedgerRuleError, type HoldingState } from '../ledger/state';
import type { VestingScheduleEntity } from '../vesting-schedules/vesting-schedule.entity';
import type { Holding } from './holding.entity';

/** `expired` is not stored: an active grant or warrant past its expiration date shows it. */
export type HoldingStatusView = HoldingStatus | 'expired';

/** What a note or SAFE became (null until converted). */
export interface ConversionView {
  date: string;
  shareholding: string;
  security: string;
  shares: string;
  conversionPrice: string;
  method: 'cap' | 'discount' | 'price';
  conversionAmount: string;
  roundPricePerShare: string;
  preMoneyValuation: string | null;
}

interface Common {
  id: string;
  organization: string;
  member: string;
  type: HoldingType;
  status: HoldingStatusView;
  created: string;
  updated: string;
}

/** Exercised into shares: option grants, RSUs and SARs (from a plan pool) and warrants. */
interface ExercisableFields {
  /** The class it is exercised into (the plan's for grants). */
  security: string;
  quantity: string;
  exercisePrice: string | null;
  grantDate: string;
  expirationDate: string | null;
  exercised: string;
  cancelled: string;
  /** Granted, neither exercised nor cancelled. */
  outstanding: string;
  /** What an exercise dated today may take: 0 unless active and not expired. */
  exercisable: string;
}

export interface GrantView extends Common, ExercisableFields {
  plan: string;
  pool: string;
  vestingSchedule: string | null;
  vestingStartDate: string | null;
  earlyExercisable: boolean;
  terminationExerciseWindows: TerminationWindow[];
  /** Vested as of today (all of it without a schedule). */
  vested: string;
}

export type WarrantView = Common & ExercisableFields;

interface ConvertibleFields {
  currency: string;
  issueDate: string;
  valuationCap: string | null;
  discount: string | null;
  conversion: ConversionView | null;
}

export interface NoteView extends Common, ConvertibleFields {
  principal: string;
  interestRate: string;
  interestType: 'simple' | 'compound';
  dayCount: 'actual/365' | '30/360';
  maturityDate: string;
  principalOutstanding: string;
  /** Interest owed as of today (accrued and unpaid), to 10 decimal places. */
  accruedInterest: string;
  interestPaid: string;
}

export interface SafeView extends Common, ConvertibleFields {
  amount: string;
  safeType: 'pre_money' | 'post_money';
  mfn: boolean;
  proRata: boolean;
}

export type HoldingView = GrantView | WarrantView | NoteView | SafeView;

/** The ledger's scale: money figures computed at full precision are shown to 10 places. */
const SCALE = 10;
const text = (d: Decimal) => toDecimalString(d.toDecimalPlaces(SCALE));
const decimal = (v: string | null | undefined) =>
  v === null || v === undefined ? null : toDecimalString(toDecimal(v));
const ZERO = toDecimal(0);

export const HOLDING_SHAPE =
  '{id, organization, member, type, status ("active", "exercised", "converted", "repaid", "cancelled", or "expired" for an active grant or warrant past its expiration date), created, updated, ...the type\'s fields}: ' +
  'grants add {plan, pool, security, quantity, exercisePrice, grantDate, expirationDate, vestingSchedule, vestingStartDate, earlyExercisable, terminationExerciseWindows, vested, exercised, cancelled, outstanding, exercisable} (as of today); ' +
  'warrants {security, quantity, exercisePrice, grantDate, expirationDate, exercised, cancelled, outstanding, exercisable}; ' +
  'notes {principal, currency, interestRate, interestType, dayCount, issueDate, maturityDate, valuationCap, discount, principalOutstanding, accruedInterest (owed today), interestPaid, conversion}; ' +
  'SAFEs {amount, currency, safeType, valuationCap, discount, mfn, proRata, issueDate, conversion}; ' +
  'conversion: null or {date, shareholding, security, shares, conversionPrice, method ("cap", "discount" or "price"), conversionAmount, roundPricePerShare, preMoneyValuation}';

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
    type: h.type,
    status: h.status,
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
  const status: HoldingStatusView = expired ? 'expired' : holding.status;
  if (h.type === 'warrant') return { ...common, status, ...fields };
  return {
    ...common,
    status,
    plan: h.planId ?? '',
    pool: h.poolId ?? '',
    ...fields,
    vestingSchedule: h.vestingScheduleId,
    vestingStartDate: terms.vestingStartDate ?? terms.grantDate ?? null,
    earlyExercisable: terms.earlyExercisable ?? false,
    terminationExerciseWindows: terms.terminationExerciseWindows ?? [],
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
