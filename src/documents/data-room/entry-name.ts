import { registerDecorator } from 'class-validator';

/** Longest name, in characters (the column is varchar(255), which counts characters). */
const MAX_LENGTH = 255;

/**
 * Why `name` cannot name a data room entry, or null when it can: 1 to 255 characters (its
 * lower-case form too, which the uniqueness index compares), no `/`, `\` or control characters,
 * and not `.` or `..`. Callers trim first.
 */
export function entryNameProblem(name: string): string | null {
  const length = [...name].length;
  if (length === 0) return 'must not be empty';
  if (length > MAX_LENGTH || [...nameKeyOf(name)].length > MAX_LENGTH) {
    return `must be at most ${MAX_LENGTH} characters`;
  }
  // eslint-disable-next-line no-control-regex
  if (/[/\\\u0000-\u001f\u007f]/.test(name)) {
    return 'must not contain "/", "\\" or control characters';
  }
  if (name === '.' || name === '..') return 'must not be "." or ".."';
  return null;
}

/** The form names are compared in: unique within a folder whatever their case. */
export const nameKeyOf = (name: string) => name.toLowerCase();

/** A DTO field holding an entry name (apply after `@Trim()`). */
export function IsEntryName(): PropertyDecorator {
  return (object: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isEntryName',
      target: object.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => typeof value === 'string' && !entryNameProblem(value),
        defaultMessage: (args) =>
          typeof args?.value === 'string'
            ? `${args.property} ${entryNameProblem(args.value)}`
            : `${args?.property} must be a string`,
      },
    });
}
