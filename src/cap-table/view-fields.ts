import { ApiProperty } from '@nestjs/swagger';

/**
 * The OpenAPI forms of the cap table views' fields that the swagger plugin sees only as `string`:
 * ids, calendar dates, instants and decimals. The plugin still gives each property its type,
 * nullability and JSDoc description; these add the format (and a decimal's pattern and example).
 */

/** A decimal as the views write it (`toDecimalString`): plain notation, no exponent, no trailing zeros. */
export const DECIMAL_TEXT = '^-?\\d+(\\.\\d+)?$';

interface FieldOptions {
  nullable?: boolean;
  description?: string;
}

const nullable = (o: FieldOptions) => (o.nullable ? { nullable: true } : {});

/** A decimal string, exact (`"4800"`, `"0.25"`). */
export const ApiDecimal = (example = '1000', options: FieldOptions = {}) =>
  ApiProperty({
    type: String,
    pattern: DECIMAL_TEXT,
    example,
    ...nullable(options),
    ...(options.description ? { description: options.description } : {}),
  });

/** The id of a record. */
export const ApiUuid = (options: FieldOptions = {}) =>
  ApiProperty({
    type: String,
    format: 'uuid',
    ...nullable(options),
    ...(options.description ? { description: options.description } : {}),
  });

/** A calendar date `YYYY-MM-DD`. */
export const ApiDate = (options: FieldOptions = {}) =>
  ApiProperty({
    type: String,
    format: 'date',
    example: '2026-01-15',
    ...nullable(options),
    ...(options.description ? { description: options.description } : {}),
  });

/** An instant, ISO 8601 in UTC (`created`, `updated`). */
export const ApiDateTime = () =>
  ApiProperty({ type: String, format: 'date-time', example: '2026-01-15T09:30:00.000Z' });
