import { dictionary } from '@zxcvbn-ts/language-common';
import { registerDecorator, ValidationOptions } from 'class-validator';

/**
 * Common passwords come from `@zxcvbn-ts/language-common` (MIT, maintained by the zxcvbn-ts
 * project): its `passwords-common` dictionary is ~49,000 of the most frequent passwords of public
 * breach corpora, ordered by frequency. We keep the ones our 8-character minimum lets through
 * (~18,000), compared case-insensitively: NIST SP 800-63B asks to refuse such passwords instead of
 * imposing composition rules.
 */
const COMMON = new Set(
  dictionary['passwords-common'].filter((p) => p.length >= 8).map((p) => p.toLowerCase()),
);

export const isCommonPassword = (password: string) => COMMON.has(password.toLowerCase());

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** 8–128 characters, no composition rules, not a common password. */
export function IsAcceptablePassword(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isAcceptablePassword',
      target: object.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          [...value].length >= PASSWORD_MIN &&
          [...value].length <= PASSWORD_MAX &&
          !isCommonPassword(value),
        defaultMessage: (args) => {
          const value: unknown = args?.value;
          const length = typeof value === 'string' ? [...value].length : -1;
          return length < PASSWORD_MIN || length > PASSWORD_MAX
            ? `${propertyName} must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`
            : `${propertyName} is too common; choose a less guessable password`;
        },
      },
    });
}
