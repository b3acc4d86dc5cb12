import { ApiProperty } from '@nestjs/swagger';

/**
 * OpenAPI details of view properties that the swagger plugin cannot infer from a TypeScript
 * type: the form of a decimal written as text, of an id, a date or a timestamp. The plugin still
 * gives each property its type, nullability and JSDoc; these add the format or pattern.
 */
interface ViewFieldOptions {
  nullable?: boolean;
  description?: string;
}

/** An exact decimal as the API writes it: digits, an optional fraction, no exponent. */
export const DECIMAL_TEXT = '^\\d+(\\.\\d+)?$';

export const DecimalView = (options: ViewFieldOptions & { example?: string } = {}) =>
  ApiProperty({
    type: String,
    pattern: DECIMAL_TEXT,
    example: options.example ?? '1000',
    ...(options.nullable && { nullable: true }),
    ...(options.description && { description: options.description }),
  });

export const UuidView = (options: ViewFieldOptions = {}) =>
  ApiProperty({
    type: String,
    format: 'uuid',
    ...(options.nullable && { nullable: true }),
    ...(options.description && { description: options.description }),
  });

/** A calendar date `YYYY-MM-DD`. */
export const DateView = (options: ViewFieldOptions = {}) =>
  ApiProperty({
    type: String,
    format: 'date',
    example: '2026-01-15',
    ...(options.nullable && { nullable: true }),
    ...(options.description && { description: options.description }),
  });

/** A UTC timestamp, ISO 8601 with milliseconds. */
export const TimestampView = (options: ViewFieldOptions = {}) =>
  ApiProperty({
    type: String,
    format: 'date-time',
    example: '2026-01-15T09:30:00.000Z',
    ...(options.nullable && { nullable: true }),
    ...(options.description && { description: options.description }),
  });
