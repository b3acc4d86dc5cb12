import { IsInt, Max, Min } from 'class-validator';

/**
 * How a variable's text becomes its value, and the messages of the rules the slices share. Every
 * message names the variable and what it accepts: it is what an operator reads when start-up stops.
 */

export const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : Number(value);

export const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : value === true || value === 'true' || value === '1'
      ? true
      : value === false || value === 'false' || value === '0'
        ? false
        : value;

export const yesNo = (value: unknown) => toBool({ value });

/** Comma-separated, each trimmed and lower-cased (addresses, domains, extensions, ids). */
export const toList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean)
    : value;

/** Comma-separated, each trimmed, case kept (origins, model ids). */
export const toTrimmedList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : value;

export const emptyToUndefined = ({ value }: { value: unknown }) =>
  value === '' ? undefined : value;

/** Blank or unset → `fallback`: for variables an operator (or a test) may set to '' meaning "default". */
export const blankTo =
  (fallback: unknown, convert: (value: unknown) => unknown = (value) => value) =>
  ({ value }: { value: unknown }) =>
    value === undefined || value === '' ? fallback : convert(value);

export const urlOpts = { require_tld: false, require_protocol: true };

export const oneOf = (values: readonly string[]) => ({
  message: (args: { property: string; value: unknown }) =>
    `${args.property} must be one of ${values.join(', ')} (got "${String(args.value)}")`,
});

export const integer = (min: number, max?: number) => ({
  message: (args: { property: string; value: unknown }) =>
    `${args.property} must be an integer ${max === undefined ? `>= ${min}` : `from ${min} to ${max}`} (got "${String(args.value)}")`,
});

/** IsInt, Min and (when given) Max, each with the message of `integer(min, max)`. */
export const IntegerIn =
  (min: number, max?: number): PropertyDecorator =>
  (target, property) => {
    const message = integer(min, max);
    IsInt(message)(target, property);
    Min(min, message)(target, property);
    if (max !== undefined) Max(max, message)(target, property);
  };
