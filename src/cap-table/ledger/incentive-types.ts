import { Type, type Static } from '@sinclair/typebox';
import {
  ALLOCATION_TYPES,
  DAY_COUNT_CONVENTIONS,
  PERIOD_TYPES,
  toDecimal,
  toDecimalString,
} from '../../../libs/cap-math';
import { DateText, DecimalText, Id, Literals, Nullable } from './payload-fields';

/**
 * The records of equity incentives and convertibles as the log carries them (Open Cap Format's
 * StockPlan, VestingTerms, EquityCompensationIssuance, WarrantIssuance, ConvertibleIssuance),
 * decimals as strings and dates `YYYY-MM-DD`.
 */

/** Granted from a plan's pool. */
export const GRANT_TYPES = ['option_iso', 'option_nso', 'option', 'rsu', 'sar'] as const;
export const HOLDING_TYPES = [...GRANT_TYPES, 'warrant', 'convertible_note', 'safe'] as const;
export type HoldingType = (typeof HOLDING_TYPES)[number];
export type GrantType = (typeof GRANT_TYPES)[number];

/** Exercised into shares: plan grants and warrants. */
export const EXERCISABLE_TYPES: ReadonlySet<HoldingType> = new Set([...GRANT_TYPES, 'warrant']);
export const CONVERTIBLE_TYPES: ReadonlySet<HoldingType> = new Set(['convertible_note', 'safe']);
export const isGrantType = (t: HoldingType): t is GrantType =>
  (GRANT_TYPES as readonly string[]).includes(t);

const LABELS: Record<HoldingType, string> = {
  option_iso: 'ISO option grant',
  option_nso: 'NSO option grant',
  option: 'option grant',
  rsu: 'RSU grant',
  sar: 'SAR grant',
  warrant: 'warrant',
  convertible_note: 'convertible note',
  safe: 'SAFE',
};

/** `ISO option grant`, `convertible note`, `SAFE` ... for messages and activity descriptions. */
export const holdingLabel = (type: HoldingType): string => LABELS[type] ?? type;

/** Stored statuses; `expired` is shown for an active grant past its expiration date. */
export type HoldingStatus = 'active' | 'exercised' | 'converted' | 'repaid' | 'cancelled';

export const CANCELLATION_BEHAVIORS = ['return_to_pool', 'retire'] as const;
export type CancellationBehavior = (typeof CANCELLATION_BEHAVIORS)[number];

const ACCELERATION_TRIGGERS = ['single', 'double'] as const;
const INTEREST_TYPES = ['simple', 'compound'] as const;

export const VestingScheduleRecord = Type.Object({
  id: Id(),
  name: Type.String(),
  planId: Nullable(Id(), {
    description: 'A schedule of one plan (else of the whole organization).',
  }),
  version: Type.Integer({
    minimum: 1,
    description: '1 for a new schedule; a PUT stores version + 1 under a new id.',
  }),
  previousVersionId: Nullable(Id()),
  totalPeriods: Type.Integer(),
  periodLength: Type.Integer(),
  periodType: Literals(PERIOD_TYPES),
  cliffPeriods: Type.Integer(),
  allocationType: Literals(ALLOCATION_TYPES),
  vestingDayOfMonth: Nullable(Type.String()),
  acceleration: Nullable(
    Type.Object({ trigger: Literals(ACCELERATION_TRIGGERS), percent: DecimalText() }),
  ),
});
export type VestingScheduleRecord = Static<typeof VestingScheduleRecord>;

export const PlanRecord = Type.Object({
  id: Id(),
  name: Type.String(),
  securityId: Id({ description: 'The class its grants exercise into.' }),
  sharesReserved: DecimalText(),
  boardApprovalDate: Nullable(DateText()),
  stockholderApprovalDate: Nullable(DateText()),
  defaultCancellationBehavior: Literals(CANCELLATION_BEHAVIORS),
});
export type PlanRecord = Static<typeof PlanRecord>;

export const PoolRecord = Type.Object({
  id: Id(),
  planId: Id(),
  name: Type.String(),
  sharesReserved: DecimalText(),
});
export type PoolRecord = Static<typeof PoolRecord>;

export const TerminationWindow = Type.Object({
  reason: Type.String(),
  period: Type.Integer(),
  periodType: Literals(PERIOD_TYPES),
});
export type TerminationWindow = Static<typeof TerminationWindow>;

/** Percentages are on a 0–100 scale in the API and the log; the math takes fractions. */
export const fractionOf = (percent: string | null | undefined): string | undefined =>
  percent === null || percent === undefined
    ? undefined
    : toDecimalString(toDecimal(percent).div(100));

/** The terms of a holding, by type (API names; absent fields do not apply to the type). */
export const HoldingTerms = Type.Object({
  // Grants and warrants.
  quantity: Type.Optional(DecimalText()),
  exercisePrice: Type.Optional(Nullable(DecimalText())),
  grantDate: Type.Optional(DateText()),
  expirationDate: Type.Optional(Nullable(DateText())),
  vestingStartDate: Type.Optional(Nullable(DateText())),
  earlyExercisable: Type.Optional(Type.Boolean()),
  terminationExerciseWindows: Type.Optional(Type.Array(TerminationWindow)),
  // Convertible notes and SAFEs.
  principal: Type.Optional(DecimalText()),
  amount: Type.Optional(DecimalText()),
  currency: Type.Optional(Type.String()),
  interestRate: Type.Optional(DecimalText({ description: 'Percent a year, 0–100 ("6" for 6%).' })),
  interestType: Type.Optional(Literals(INTEREST_TYPES)),
  dayCount: Type.Optional(Literals(DAY_COUNT_CONVENTIONS)),
  issueDate: Type.Optional(DateText()),
  maturityDate: Type.Optional(DateText()),
  valuationCap: Type.Optional(Nullable(DecimalText())),
  discount: Type.Optional(
    Nullable(DecimalText({ description: 'Percent off the round price, 0–100 ("20" for 20%).' })),
  ),
  safeType: Type.Optional(Literals(['pre_money', 'post_money'])),
  mfn: Type.Optional(Type.Boolean()),
  proRata: Type.Optional(Type.Boolean()),
});
export type HoldingTerms = Static<typeof HoldingTerms>;

export const HoldingRecord = Type.Object({
  id: Id(),
  memberId: Id(),
  type: Literals(HOLDING_TYPES),
  planId: Nullable(Id()),
  poolId: Nullable(Id()),
  securityId: Nullable(Id(), {
    description: 'The class it becomes: the plan’s for grants, the warrant’s own.',
  }),
  vestingScheduleId: Nullable(Id()),
  terms: HoldingTerms,
});
export type HoldingRecord = Static<typeof HoldingRecord>;

export const HoldingAmendment = Type.Object({
  terms: Type.Optional(HoldingTerms),
  vestingScheduleId: Type.Optional(Nullable(Id())),
  memberId: Type.Optional(Id()),
});
export type HoldingAmendment = Static<typeof HoldingAmendment>;

export const ExerciseRequestRecord = Type.Object({
  id: Id(),
  holdingId: Id(),
  quantity: DecimalText(),
  date: DateText(),
  paymentMethod: Nullable(Type.String()),
  requestedByUserId: Nullable(Id()),
});
export type ExerciseRequestRecord = Static<typeof ExerciseRequestRecord>;

/** What a conversion turned a note or SAFE into. */
export const ConversionRecord = Type.Object({
  date: DateText(),
  shareholdingId: Id(),
  securityId: Id(),
  shares: DecimalText(),
  conversionPrice: DecimalText(),
  method: Literals(['cap', 'discount', 'price']),
  conversionAmount: DecimalText({
    description:
      'What converted: a SAFE’s amount, a note’s outstanding principal plus accrued interest.',
  }),
  roundPricePerShare: DecimalText(),
  preMoneyValuation: Nullable(DecimalText()),
});
export type ConversionRecord = Static<typeof ConversionRecord>;

/** Plan grants and warrants alike: shares of the holding's class at the exercise price. */
export const ExercisePayload = Type.Object({
  holdingId: Id(),
  requestId: Nullable(Id()),
  quantity: DecimalText(),
  date: DateText(),
  paymentMethod: Nullable(Type.String()),
  shareholdingId: Id(),
  legendIds: Type.Array(Id()),
});
export type ExercisePayload = Static<typeof ExercisePayload>;
