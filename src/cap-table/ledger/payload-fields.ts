import {
  Type,
  type SchemaOptions,
  type TLiteral,
  type TSchema,
  type TUnion,
} from '@sinclair/typebox';

/**
 * The building blocks of the log's payload schemas (TypeBox, so JSON Schema): one schema per
 * transaction type sits in its definition, and its TypeScript type, the replay's check and the
 * OpenAPI document of `GET .../transaction` all come from it. Decimals are strings in plain
 * notation (as `toDecimalString` writes them), dates `YYYY-MM-DD`.
 */

/** A decimal as the log keeps it: `1000`, `-0.5`, never an exponent. */
export const DecimalText = (options: SchemaOptions = {}) =>
  Type.String({ pattern: '^-?[0-9]+(\\.[0-9]+)?$', ...options });

/** A calendar date, `YYYY-MM-DD`. */
export const DateText = (options: SchemaOptions = {}) =>
  Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', ...options });

/** The id of a record of the ledger (a UUID for those the service makes; imports keep theirs). */
export const Id = (options: SchemaOptions = {}) => Type.String({ minLength: 1, ...options });

/** `schema` or null (the log writes null for a value that is not there, never leaves it out). */
export const Nullable = <S extends TSchema>(schema: S, options: SchemaOptions = {}) =>
  Type.Union([schema, Type.Null()], options);

/** One of a list of strings (a `const` tuple: its type is the union of them). */
export const Literals = <const V extends readonly string[]>(
  values: V,
  options: SchemaOptions = {},
) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TUnion<TLiteral<V[number]>[]>;
