import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** An amount of money as we answer it: a decimal string with two decimals, signed. */
export const MoneyView = (options: { description?: string; optional?: boolean } = {}) =>
  (options.optional ? ApiPropertyOptional : ApiProperty)({
    type: String,
    pattern: '^-?\\d+\\.\\d{2}$',
    example: '49.00',
    ...(options.description && { description: options.description }),
  });

/** A UTC timestamp, ISO 8601. */
export const TimeView = (
  options: { nullable?: boolean; optional?: boolean; description?: string } = {},
) =>
  (options.optional ? ApiPropertyOptional : ApiProperty)({
    type: String,
    format: 'date-time',
    example: '2026-01-15T09:30:00.000Z',
    ...(options.nullable && { nullable: true }),
    ...(options.description && { description: options.description }),
  });
