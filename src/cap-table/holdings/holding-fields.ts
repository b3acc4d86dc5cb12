import { compareDates, toDecimal } from '../../../libs/cap-math';
import { DomainError, type OrganizationInContext } from '../../common';
import { isGrantType, type HoldingTerms, type HoldingType } from '../ledger/incentive-types';
import { decimalText, quantity } from '../quantities';
import type { HoldingTermsDto } from './holding.dto';

/**
 * Which fields each holding type takes, needs and may change, and how its terms are built from a
 * request. One table for POST, PUT and PATCH: a field of another type is refused (400 naming
 * it) rather than silently dropped, so a client sending a note's `principal` on a SAFE learns of
 * it.
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
export const FIXED_FIELDS: readonly TermField[] = ['plan', 'pool', 'security'];

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
    throw DomainError.badRequest(
      `${foreign.join(', ')} ${foreign.length > 1 ? 'do' : 'does'} not apply to ${article(type)} ${type}`,
    );
  }
}

/** `invalidFields` naming every required field of the type that is missing (or null). */
export function assertRequired(type: HoldingType, dto: HoldingTermsDto): void {
  const missing = requiredFields(type).filter((f) => dto[f] === undefined || dto[f] === null);
  if (missing.length) {
    throw DomainError.keyed(
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
  organization: OrganizationInContext,
): HoldingTerms {
  switch (kindOf(type)) {
    case 'grant':
      return {
        quantity: quantity(dto.quantity!, 'quantity', organization),
        exercisePrice: decimalText(dto.exercisePrice),
        grantDate: dto.grantDate!,
        expirationDate: dto.expirationDate ?? null,
        vestingStartDate: dto.vestingStartDate ?? dto.grantDate!,
        earlyExercisable: dto.earlyExercisable ?? false,
        terminationExerciseWindows: windows(dto),
      };
    case 'warrant':
      return {
        quantity: quantity(dto.quantity!, 'quantity', organization),
        exercisePrice: decimalText(dto.exercisePrice),
        grantDate: dto.grantDate!,
        expirationDate: dto.expirationDate ?? null,
      };
    case 'convertible_note':
      return {
        principal: decimalText(dto.principal)!,
        currency: dto.currency ?? organization.currency,
        interestRate: decimalText(dto.interestRate)!,
        interestType: dto.interestType!,
        dayCount: dto.dayCount!,
        issueDate: dto.issueDate!,
        maturityDate: dto.maturityDate!,
        valuationCap: decimalText(dto.valuationCap),
        discount: decimalText(dto.discount),
      };
    case 'safe':
      return {
        amount: decimalText(dto.amount)!,
        currency: dto.currency ?? organization.currency,
        safeType: dto.safeType!,
        valuationCap: decimalText(dto.valuationCap),
        discount: decimalText(dto.discount),
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
export function patchedTerms(
  type: HoldingType,
  current: HoldingTerms,
  dto: HoldingTermsDto,
  organization: OrganizationInContext,
): HoldingTerms {
  const sent: HoldingTermsDto = Object.fromEntries(
    fieldsOf(type)
      .filter((f) => dto[f] !== undefined && !FIXED_FIELDS.includes(f) && f !== 'vestingSchedule')
      .map((f) => [f, dto[f]]),
  );
  // The stored terms read as request fields, so the sent ones are normalised the same way.
  const built = termsFrom(
    type,
    { ...(current as unknown as HoldingTermsDto), ...sent },
    organization,
  );
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
  if (problems.length) throw DomainError.badRequest(problems.join('; '));
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
    throw DomainError.badRequest(`terminationExerciseWindows has ${twice} twice`, {
      body: { field: 'terminationExerciseWindows' },
    });
  }
  return list;
}
