import { compareDates, toDecimal } from '../../../libs/cap-math';
import { commandQuantity, decimalOrNull } from '../ledger/command-values';
import { isGrantType, type HoldingTerms, type HoldingType } from '../ledger/incentive-types';
import { LedgerRuleError, type HoldingState } from '../ledger/ledger-state';
import type { CommandContext } from '../ledger/transactions/definition';
import type { AmendHoldingDto, HoldingTermsDto } from './holding.dto';

/**
 * Which fields each holding type takes, needs and may change, and how its terms are built from a
 * request (the holding commands' `prepare`). One table for POST, PUT and PATCH: a field of
 * another type is refused (400 naming it) rather than silently dropped, so a client sending a
 * note's `principal` on a SAFE learns of it.
 */
export type TermField = keyof HoldingTermsDto;
type Kind = 'grant' | 'warrant' | 'convertible_note' | 'safe';

const kindOf = (type: HoldingType): Kind => (isGrantType(type) ? 'grant' : (type as Kind));

const FIELDS: Record<Kind, readonly TermField[]> = {
  grant: [
    'plan',
    'pool',
    'quantity',
    'exercisePrice',
    'grantDate',
    'expirationDate',
    'vestingSchedule',
    'vestingStartDate',
    'earlyExercisable',
    'terminationExerciseWindows',
  ],
  warrant: ['security', 'quantity', 'exercisePrice', 'grantDate', 'expirationDate'],
  convertible_note: [
    'principal',
    'currency',
    'interestRate',
    'interestType',
    'dayCount',
    'issueDate',
    'maturityDate',
    'valuationCap',
    'discount',
  ],
  safe: [
    'amount',
    'currency',
    'safeType',
    'valuationCap',
    'discount',
    'mfn',
    'proRata',
    'issueDate',
  ],
};

const ALL_FIELDS: readonly TermField[] = [...new Set(Object.values(FIELDS).flat())];

/** What identifies the holding: given when it is created, afterwards accepted only unchanged. */
const FIXED_FIELDS: readonly TermField[] = ['plan', 'pool', 'security'];

/** Required fields of a type (RSUs may have no exercise price: they are settled, not bought). */
export function requiredFields(type: HoldingType): TermField[] {
  switch (kindOf(type)) {
    case 'grant':
      return [
        'plan',
        'pool',
        'quantity',
        ...(type === 'rsu' ? [] : ['exercisePrice' as const]),
        'grantDate',
      ];
    case 'warrant':
      return ['security', 'quantity', 'exercisePrice', 'grantDate'];
    case 'convertible_note':
      return ['principal', 'interestRate', 'interestType', 'dayCount', 'issueDate', 'maturityDate'];
    case 'safe':
      return ['amount', 'safeType', 'issueDate'];
  }
}

export const fieldsOf = (type: HoldingType): readonly TermField[] => FIELDS[kindOf(type)];

const article = (type: string) => (/^[aeiou]/.test(type) ? 'an' : 'a');

/** 400 naming every field sent that the type does not take. */
export function assertApplicable(type: HoldingType, dto: HoldingTermsDto): void {
  const allowed = new Set(fieldsOf(type));
  const foreign = ALL_FIELDS.filter((f) => dto[f] !== undefined && !allowed.has(f));
  if (foreign.length) {
    throw new LedgerRuleError(
      'invalid',
      `${foreign.join(', ')} ${foreign.length > 1 ? 'do' : 'does'} not apply to ${article(type)} ${type}`,
    );
  }
}

/** `invalidFields` naming every required field of the type that is missing (or null). */
export function assertRequired(type: HoldingType, dto: HoldingTermsDto): void {
  const missing = requiredFields(type).filter((f) => dto[f] === undefined || dto[f] === null);
  if (missing.length) {
    throw new LedgerRuleError(
      'invalidFields',
      `${missing.map((f) => `${f} is required`).join('; ')} for ${article(type)} ${type}`,
    );
  }
}

/**
 * The complete terms of a type from a request (POST and PUT): left-out optional fields take
 * their defaults (no expiration, vesting from the grant date, no early exercise, no windows, the
 * organization's currency, no cap or discount, no MFN or pro rata).
 */
export function termsFrom(
  type: HoldingType,
  dto: HoldingTermsDto,
  context: CommandContext,
): HoldingTerms {
  const { organization } = context;
  switch (kindOf(type)) {
    case 'grant':
      return {
        quantity: commandQuantity(dto.quantity!, 'quantity', context),
        exercisePrice: decimalOrNull(dto.exercisePrice),
        grantDate: dto.grantDate!,
        expirationDate: dto.expirationDate ?? null,
        vestingStartDate: dto.vestingStartDate ?? dto.grantDate!,
        earlyExercisable: dto.earlyExercisable ?? false,
        terminationExerciseWindows: windows(dto),
      };
    case 'warrant':
      return {
        quantity: commandQuantity(dto.quantity!, 'quantity', context),
        exercisePrice: decimalOrNull(dto.exercisePrice),
        grantDate: dto.grantDate!,
        expirationDate: dto.expirationDate ?? null,
      };
    case 'convertible_note':
      return {
        principal: decimalOrNull(dto.principal)!,
        currency: dto.currency ?? organization.currency,
        interestRate: decimalOrNull(dto.interestRate)!,
        interestType: dto.interestType!,
        dayCount: dto.dayCount!,
        issueDate: dto.issueDate!,
        maturityDate: dto.maturityDate!,
        valuationCap: decimalOrNull(dto.valuationCap),
        discount: decimalOrNull(dto.discount),
      };
    case 'safe':
      return {
        amount: decimalOrNull(dto.amount)!,
        currency: dto.currency ?? organization.currency,
        safeType: dto.safeType!,
        valuationCap: decimalOrNull(dto.valuationCap),
        discount: decimalOrNull(dto.discount),
        mfn: dto.mfn ?? false,
        proRata: dto.proRata ?? false,
        issueDate: dto.issueDate!,
      };
  }
}

/**
 * PATCH: the current terms with the fields sent. Null clears a nullable field; a null vesting
 * start date goes back to the grant date.
 */
function patchedTerms(
  type: HoldingType,
  current: HoldingTerms,
  dto: HoldingTermsDto,
  context: CommandContext,
): HoldingTerms {
  const sent: HoldingTermsDto = Object.fromEntries(
    fieldsOf(type)
      .filter((f) => dto[f] !== undefined && !FIXED_FIELDS.includes(f) && f !== 'vestingSchedule')
      .map((f) => [f, dto[f]]),
  );
  // The stored terms read as request fields, so the sent ones are normalised the same way.
  const built = termsFrom(type, { ...(current as unknown as HoldingTermsDto), ...sent }, context);
  const merged: Record<string, unknown> = { ...current };
  for (const f of Object.keys(sent)) merged[f] = built[f as keyof HoldingTerms];
  return merged as HoldingTerms;
}

/** Rules across fields, on the complete terms. */
export function assertConsistent(type: HoldingType, terms: HoldingTerms): void {
  const problems: string[] = [];
  if (
    terms.grantDate &&
    terms.expirationDate &&
    compareDates(terms.expirationDate, terms.grantDate) < 0
  ) {
    problems.push('expirationDate must not be before grantDate');
  }
  if (
    terms.issueDate &&
    terms.maturityDate &&
    compareDates(terms.maturityDate, terms.issueDate) < 0
  ) {
    problems.push('maturityDate must not be before issueDate');
  }
  if (terms.interestRate !== undefined && toDecimal(terms.interestRate).gt(100)) {
    problems.push('interestRate is a percent a year: at most 100 ("6" for 6%)');
  }
  if (
    terms.discount !== undefined &&
    terms.discount !== null &&
    toDecimal(terms.discount).gte(100)
  ) {
    problems.push('discount is a percent below 100 ("20" for 20%)');
  }
  if (requiredFields(type).includes('exercisePrice') && !terms.exercisePrice) {
    problems.push(`exercisePrice is required for ${article(type)} ${type}`);
  }
  if (problems.length) throw new LedgerRuleError('invalid', problems.join('; '));
}

function windows(dto: HoldingTermsDto): NonNullable<HoldingTerms['terminationExerciseWindows']> {
  const list = (dto.terminationExerciseWindows ?? []).map((w) => ({
    reason: w.reason,
    period: w.period,
    periodType: w.periodType,
  }));
  const reasons = list.map((w) => w.reason);
  const twice = reasons.find((r, i) => reasons.indexOf(r) !== i);
  if (twice) {
    throw new LedgerRuleError(
      'invalid',
      `terminationExerciseWindows has ${twice} twice`,
      'terminationExerciseWindows',
    );
  }
  return list;
}

/**
 * The terms a PUT (`replace`) or PATCH of an active holding asks for, complete: the fixed fields
 * accepted only unchanged, fields of another type refused, a PUT's required ones needed.
 */
export function amendedTerms(
  h: HoldingState,
  dto: AmendHoldingDto,
  replace: boolean,
  context: CommandContext,
): HoldingTerms {
  assertFixed(h, dto, context.organization.id);
  assertApplicable(h.type, dto);
  const wanted = replace
    ? replacedTerms(h, dto, context)
    : patchedTerms(h.type, h.terms, dto, context);
  assertConsistent(h.type, wanted);
  return wanted;
}

/** PUT: the fixed references are the holding's own; everything else as sent. */
function replacedTerms(h: HoldingState, dto: AmendHoldingDto, context: CommandContext) {
  const full = {
    ...dto,
    plan: h.planId ?? undefined,
    pool: h.poolId ?? undefined,
    security: h.securityId ?? undefined,
  };
  if (!isGrantType(h.type)) full.plan = full.pool = undefined;
  if (h.type !== 'warrant') full.security = undefined;
  assertRequired(h.type, full);
  return termsFrom(h.type, full, context);
}

/** The holder, type, plan, pool and class identify a holding: accepted only unchanged. */
function assertFixed(h: HoldingState, dto: AmendHoldingDto, organizationId: string) {
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
    throw new LedgerRuleError(
      'invalid',
      `${changed.join(', ')} of a holding cannot change (cancel it and create another)`,
    );
  }
}

/** The terms of `wanted` that differ from the current ones. */
export function changedTerms(current: HoldingTerms, wanted: HoldingTerms): HoldingTerms {
  return Object.fromEntries(
    Object.entries(wanted).filter(
      ([k, v]) =>
        JSON.stringify(current[k as keyof HoldingTerms] ?? null) !== JSON.stringify(v ?? null),
    ),
  ) as HoldingTerms;
}
