import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsISO31661Alpha2,
  IsISO4217CurrencyCode,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateNested,
} from 'class-validator';
import { toDecimal } from '../../../../libs/cap-math';
import { DateField, DecimalField, NormalizeEmail, Trim, TrimUpper } from '../../../common';

/**
 * The draft a language model proposes for a new organization (the input of the tool
 * `record_onboarding_draft`): OCF's field names, flattened (money is a decimal string in the
 * organization's currency), each item with the model's own `id` that other items refer to.
 */

export const MAX_DRAFT_ITEMS = 500;
export const MAX_DRAFT_QUESTIONS = 50;
export const MAX_DRAFT_ID = 64;
export const MAX_NAME = 200;

export const DRAFT_SOURCES = ['prompt', 'document', 'answer'] as const;
export const ENTITY_TYPES = ['corporation', 'llc'] as const;
export const STAKEHOLDER_TYPES = ['INDIVIDUAL', 'INSTITUTION'] as const;
export const CLASS_TYPES = ['COMMON', 'PREFERRED'] as const;
export const CONVERTIBLE_TYPES = ['SAFE', 'NOTE', 'CONVERTIBLE_SECURITY'] as const;
export const PERIOD_TYPES = ['MONTHS', 'DAYS'] as const;
export const QUESTION_KINDS = ['text', 'number', 'date', 'choice', 'boolean'] as const;

export type DraftSource = (typeof DRAFT_SOURCES)[number];

const Text = (max: number) => applyDecorators(Trim(), IsString(), IsNotEmpty(), MaxLength(max));
const OptionalText = (max: number) =>
  applyDecorators(Trim(), IsOptional(), IsString(), IsNotEmpty(), MaxLength(max));

/** The id of another item of the draft (its `id`). */
const Reference = (optional = false) =>
  applyDecorators(...(optional ? [IsOptional()] : []), Text(MAX_DRAFT_ID));

const Choice = (values: readonly string[], optional = false) =>
  applyDecorators(
    (optional ? ApiPropertyOptional : ApiProperty)({ enum: values }),
    ...(optional ? [IsOptional()] : []),
    IsIn(values),
  );

const Items = (type: () => new () => object, max = MAX_DRAFT_ITEMS) =>
  applyDecorators(
    ApiPropertyOptional({ type: [type()] }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(max),
    ValidateNested({ each: true }),
    Type(type),
  );

/** OCF `Percentage`: a fraction from 0 to 1 (0.2 for 20 %). */
function AtMostOne(): PropertyDecorator {
  return (object: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'atMostOne',
      target: object.constructor,
      propertyName: String(propertyName),
      validator: {
        // Malformed decimals are DecimalField's to report.
        validate: (value: unknown) =>
          typeof value !== 'string' || !/^\d/.test(value) || toDecimal(value).lte(1),
        defaultMessage: (args) => `${args?.property} must be a fraction from 0 to 1 (0.2 is 20%)`,
      },
    });
}

const Fraction = () =>
  applyDecorators(DecimalField({ optional: true, example: '0.2' }), AtMostOne());

/**
 * What every proposal carries: how sure the model is, and where it read it. Exported so that the
 * published schema shows these inherited fields too (the document's generator skips a class it
 * cannot import).
 */
export class Proposed {
  /** How sure the model is of this item, from 0 to 1. */
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  confidence: number;

  /** Where the model found it: the founder's words, a document, or an answer to a question. */
  @Choice(DRAFT_SOURCES, true)
  source?: DraftSource;
}

/** An item of one of the draft's lists. */
export class DraftItem extends Proposed {
  /** The model's own reference, unique within its list; other items point to it. */
  @Text(MAX_DRAFT_ID)
  id: string;
}

/** The organization (OCF Issuer). */
export class DraftOrganization extends Proposed {
  /** The name in use; when left out, the "just set it up" defaults take it from the e-mail domain. */
  @OptionalText(MAX_NAME)
  name?: string;

  @OptionalText(MAX_NAME)
  legal_name?: string;

  /** ISO 3166-1 alpha-2 (`US`, `DE`). */
  @TrimUpper()
  @IsOptional()
  @IsISO31661Alpha2()
  country_of_formation?: string;

  /** ISO 4217; every amount of the draft is in it (default USD). */
  @TrimUpper()
  @IsOptional()
  @IsISO4217CurrencyCode()
  currency?: string;

  /** An LLC's units may be fractional; a corporation's shares are whole. */
  @Choice(ENTITY_TYPES, true)
  entity_type?: (typeof ENTITY_TYPES)[number];
}

/** A person or institution that holds something (OCF Stakeholder). */
export class DraftPerson extends DraftItem {
  @Text(MAX_NAME)
  name: string;

  @NormalizeEmail()
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string;

  /** Default INDIVIDUAL. */
  @Choice(STAKEHOLDER_TYPES, true)
  stakeholder_type?: (typeof STAKEHOLDER_TYPES)[number];

  /** Role in the company ("CEO"). */
  @OptionalText(MAX_NAME)
  title?: string;
}

/** A share class (OCF StockClass). */
export class DraftShareClass extends DraftItem {
  @Text(MAX_NAME)
  name: string;

  /** Default COMMON. */
  @Choice(CLASS_TYPES, true)
  class_type?: (typeof CLASS_TYPES)[number];

  /** Certificate prefix such as `CS-`. */
  @Trim()
  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{1,20}$/, {
    message: 'default_id_prefix must be 1 to 20 letters, digits, dots, dashes or underscores',
  })
  default_id_prefix?: string;

  @DecimalField({ example: '10000000' })
  initial_shares_authorized: string;

  /** Default 1. */
  @DecimalField({ optional: true, example: '1' })
  votes_per_share?: string;

  /** Original issue price. */
  @DecimalField({ optional: true, example: '1.25' })
  price_per_share?: string;

  @DecimalField({ optional: true, example: '0.0001' })
  par_value?: string;

  /** Order of liquidation (higher is paid first); default 1. */
  @ApiPropertyOptional({ example: 1 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1000)
  seniority?: number;
}

/** Shares issued to a holder (OCF TX_STOCK_ISSUANCE). */
export class DraftShareholding extends DraftItem {
  /** A person of the draft. */
  @Reference()
  stakeholder_id: string;

  /** A share class of the draft; when left out, the defaults put it in the Common class. */
  @Reference(true)
  stock_class_id?: string;

  @DecimalField({ example: '4000000' })
  quantity: string;

  /** Price paid per share. */
  @DecimalField({ optional: true, example: '0.0001' })
  share_price?: string;

  /** Issue date; default today. */
  @DateField({ optional: true })
  date?: string;
}

/** An equity incentive plan (OCF StockPlan). */
export class DraftOptionPlan extends DraftItem {
  @Text(MAX_NAME)
  plan_name: string;

  /** The share class its options exercise into; when left out, the defaults use the Common class. */
  @Reference(true)
  stock_class_id?: string;

  /** Shares of the class held back for the plan. */
  @DecimalField({ example: '1500000' })
  initial_shares_reserved: string;

  @DateField({ optional: true })
  board_approval_date?: string;
}

/** A pool of a plan: a part of its reservation (Ledgerline's; OCF has none). */
export class DraftOptionPool extends DraftItem {
  /** An option plan of the draft. */
  @Reference()
  stock_plan_id: string;

  @Text(MAX_NAME)
  name: string;

  @DecimalField({ example: '1000000' })
  shares_reserved: string;
}

/** An option granted out of a plan (OCF TX_EQUITY_COMPENSATION_ISSUANCE, compensation OPTION). */
export class DraftOptionGrant extends DraftItem {
  @Reference()
  stakeholder_id: string;

  @Reference()
  stock_plan_id: string;

  /** A pool of that plan; default its first pool. */
  @Reference(true)
  pool_id?: string;

  /** Shares the option is on. */
  @DecimalField({ example: '100000' })
  quantity: string;

  /** Per share. */
  @DecimalField({ example: '0.25' })
  exercise_price: string;

  /** Grant date; default today. */
  @DateField({ optional: true })
  date?: string;

  @DateField({ optional: true })
  expiration_date?: string;

  /** A vesting schedule of the draft; none: vested at grant. */
  @Reference(true)
  vesting_terms_id?: string;

  /** Default the grant date. */
  @DateField({ optional: true })
  vesting_start_date?: string;
}

/** A SAFE or convertible note (OCF TX_CONVERTIBLE_ISSUANCE). */
export class DraftConvertible extends DraftItem {
  @Reference()
  stakeholder_id: string;

  /** CONVERTIBLE_SECURITY has no counterpart in the ledger: it is reported, not built. */
  @Choice(CONVERTIBLE_TYPES)
  convertible_type: (typeof CONVERTIBLE_TYPES)[number];

  @DecimalField({ example: '500000' })
  investment_amount: string;

  /** Issue date; default today. */
  @DateField({ optional: true })
  date?: string;

  @DecimalField({ optional: true, example: '10000000' })
  valuation_cap?: string;

  /** A fraction from 0 to 1 (0.2 is a 20 % discount). */
  @Fraction()
  discount?: string;

  /** A note's yearly interest, a fraction from 0 to 1. */
  @Fraction()
  interest_rate?: string;

  /** A note's maturity date (required for a note). */
  @DateField({ optional: true })
  maturity_date?: string;
}

/** Time-based vesting: `occurrences` equal periods, the first `cliff_installment` of them at the cliff. */
export class DraftVestingSchedule extends DraftItem {
  @Text(MAX_NAME)
  name: string;

  @OptionalText(1000)
  description?: string;

  @ApiProperty({ example: 1 })
  @IsInt()
  @Min(1)
  @Max(1000)
  period_length: number;

  /** Default MONTHS. */
  @Choice(PERIOD_TYPES, true)
  period_type?: (typeof PERIOD_TYPES)[number];

  /** Number of periods: 48 for four years of monthly vesting. */
  @ApiProperty({ example: 48 })
  @IsInt()
  @Min(1)
  @Max(3650)
  occurrences: number;

  /** Periods that vest together at the cliff: 12 for a one-year cliff of monthly vesting. */
  @ApiPropertyOptional({ example: 12 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(3650)
  cliff_installment?: number;
}

/** A question the model wants the founder to answer. */
export class DraftQuestion {
  @Text(500)
  text: string;

  @Choice(QUESTION_KINDS)
  kind: (typeof QUESTION_KINDS)[number];

  /** The choices, for `choice`. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(MAX_NAME, { each: true })
  options?: string[];

  @IsBoolean()
  required: boolean;

  /** The item the question is about. */
  @OptionalText(MAX_DRAFT_ID)
  item_id?: string;

  /** The field of that item (`quantity`). */
  @OptionalText(100)
  field_path?: string;
}

/** The whole draft; every list may be left out (empty). */
export class OnboardingDraft {
  @IsObject()
  @ValidateNested()
  @Type(() => DraftOrganization)
  organization: DraftOrganization;

  @Items(() => DraftPerson)
  people: DraftPerson[] = [];

  @Items(() => DraftShareClass)
  shareClasses: DraftShareClass[] = [];

  @Items(() => DraftShareholding)
  shareholdings: DraftShareholding[] = [];

  @Items(() => DraftOptionPlan)
  optionPlans: DraftOptionPlan[] = [];

  @Items(() => DraftOptionPool)
  optionPools: DraftOptionPool[] = [];

  @Items(() => DraftOptionGrant)
  optionGrants: DraftOptionGrant[] = [];

  @Items(() => DraftConvertible)
  convertibles: DraftConvertible[] = [];

  @Items(() => DraftVestingSchedule)
  vestingSchedules: DraftVestingSchedule[] = [];

  @Items(() => DraftQuestion, MAX_DRAFT_QUESTIONS)
  questions: DraftQuestion[] = [];
}
