import { Transform } from 'class-transformer';
import { normalizeEmail } from '../email';

const onStrings = (f: (s: string) => string) =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? f(value) : value));

/** DTO field decorators that normalise text before validation. */
export const Trim = () => onStrings((s) => s.trim());
export const TrimUpper = () => onStrings((s) => s.trim().toUpperCase());
/** E-mail addresses are compared in their normalised form everywhere (`normalizeEmail`). */
export const NormalizeEmail = () => onStrings(normalizeEmail);
