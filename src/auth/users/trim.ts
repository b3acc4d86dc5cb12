import { Transform } from 'class-transformer';

/** Trims a string field before validation (addresses are compared trimmed and lower case). */
export const Trim = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
