import type { ValueTransformer } from 'typeorm';

/** The provider's ids are integers; PostgreSQL answers a bigint as text. */
export const PROVIDER_ID: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
