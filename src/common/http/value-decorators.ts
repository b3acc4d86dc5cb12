import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, Matches, registerDecorator, ValidateIf } from 'class-validator';
import { isValidDate, toDecimal, toDecimalString } from '../../../libs/cap-math';

/** At most 28 digits before the point and 10 after (the columns are numeric(38, 10)). */
const DECIMAL = /^\d{1,28}(\.\d{1,10})?$/;

/**
 * A JSON number becomes its exact decimal text (numbers too long for a double arrive as text
 * already, see jsonBody); `1e-7` becomes `0.0000001`. Anything else is left for the validator.
 */
const toDecimalText = ({ value }: { value: unknown }) => {
  if (typeof value === 'number' && Number.isFinite(value)) return toDecimalString(toDecimal(value));
  return typeof value === 'string' ? value.trim() : value;
};

function IsPositiveDecimal(): PropertyDecorator {
  return (object: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isPositiveDecimal',
      target: object.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && DECIMAL.test(value) && toDecimal(value).gt(0),
        defaultMessage: (args) => `${args?.property} must be more than 0`,
      },
    });
}

interface FieldOptions {
  /** May be left out. */
  optional?: boolean;
  /** With `optional`: null is accepted too (default); false where null would clear a required value. */
  nullable?: boolean;
}

/**
 * A field that may be left out but not sent as null: for PATCH bodies whose columns are required
 * (IsOptional would let null through to the database).
 */
export const Omittable = () => ValidateIf((_o: unknown, v: unknown) => v !== undefined);

/** Skips the validation of a left-out value (and of null, when nullable). */
const skipAbsent = (options: FieldOptions) =>
  !options.optional
    ? []
    : options.nullable === false
      ? [Omittable()]
      : [ValidateIf((_o: unknown, v: unknown) => v !== undefined && v !== null)];

/** An amount of money: signed, at most two decimals (cents), at most 13 digits before the point. */
const MONEY = /^-?\d{1,13}(\.\d{1,2})?$/;

/**
 * A quantity, price or amount: a decimal string or a JSON number, never negative, kept exact.
 * `positive` refuses zero too. `money`: an amount of money instead, signed, at most two decimals.
 */
export const DecimalField = (
  options: FieldOptions & { positive?: boolean; money?: boolean; example?: string } = {},
) =>
  applyDecorators(
    (options.optional ? ApiPropertyOptional : ApiProperty)({
      type: String,
      example: options.example ?? (options.money ? '-10.50' : '1000'),
      description: options.money
        ? 'Money: a string (or a JSON number), signed, at most two decimals'
        : 'Decimal: a string (or a JSON number), at most 28 digits before the point and 10 after',
    }),
    Transform(toDecimalText),
    ...skipAbsent(options),
    options.money
      ? Matches(MONEY, {
          message:
            '$property must be an amount of money (signed, at most two decimals), as a string or a JSON number',
        })
      : Matches(DECIMAL, {
          message:
            '$property must be a non-negative decimal number (at most 28 digits before the point and 10 after), as a string or a JSON number',
        }),
    ...(options.positive ? [IsPositiveDecimal()] : []),
  );

/** A calendar date `YYYY-MM-DD`. */
export const DateField = (options: FieldOptions = {}) =>
  applyDecorators(
    (options.optional ? ApiPropertyOptional : ApiProperty)({
      type: String,
      format: 'date',
      example: '2026-01-15',
    }),
    ...skipAbsent(options),
    ((object: object, propertyName: string | symbol) =>
      registerDecorator({
        name: 'isCalendarDate',
        target: object.constructor,
        propertyName: String(propertyName),
        validator: {
          validate: (value: unknown) => typeof value === 'string' && isValidDate(value),
          defaultMessage: (args) => `${args?.property} must be a date YYYY-MM-DD`,
        },
      })) as PropertyDecorator,
  );

/**
 * An optional flag of a query string: `true` or `false` (anything else is a 400), default false.
 */
export const QueryFlag = () =>
  applyDecorators(
    ApiPropertyOptional({ type: Boolean, default: false }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) =>
      value === 'true' ? true : value === 'false' ? false : value,
    ),
    IsBoolean(),
  );
