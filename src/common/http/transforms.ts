import { Transform } from 'class-transformer';

const onStrings = (f: (s: string) => string) =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? f(value) : value));

/** DTO field decorators that normalise text before validation. */
export const Trim = () => onStrings((s) => s.trim());
export const TrimUpper = () => onStrings((s) => s.trim().toUpperCase());
/** E-mail addresses are compared trimmed and lower-cased everywhere. */
export const NormalizeEmail = () => onStrings((s) => s.trim().toLowerCase());
