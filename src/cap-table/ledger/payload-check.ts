import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { TransactionType } from './transaction-types';
import { definitionOf } from './transactions';

/**
 * An entry whose payload is not its type's shape (a row written by hand, a migration gone
 * wrong, a payload an older version logged without its `upgrade`): no replay reads past it,
 * lenient ones included, since what it would make is not the cap table it records.
 */
export class MalformedEntryError extends Error {
  constructor(
    readonly type: TransactionType,
    readonly entryId: string,
    /** Where in the payload (a JSON pointer, `/holding/terms/quantity`). */
    readonly path: string,
    problem: string,
  ) {
    super(
      `${type} entry ${entryId}: its payload${path ? ` at ${path}` : ''} is malformed: ${problem}`,
    );
    this.name = 'MalformedEntryError';
  }
}

// Compiled on a type's first entry and kept: a check is then one generated function's call.
const checks = new Map<TransactionType, TypeCheck<TSchema>>();

function checkOf(type: TransactionType): TypeCheck<TSchema> {
  let check = checks.get(type);
  if (!check) {
    check = TypeCompiler.Compile(definitionOf(type).payload);
    checks.set(type, check);
  }
  return check;
}

/** Refuses a payload that is not its type's schema's (as the definition now reads it). */
export function assertPayload(entry: { id: string; type: TransactionType }, payload: unknown) {
  const check = checkOf(entry.type);
  if (check.Check(payload)) return;
  const first = check.Errors(payload).First();
  throw new MalformedEntryError(
    entry.type,
    entry.id,
    first?.path ?? '',
    first
      ? `${first.message.toLowerCase()}, not ${JSON.stringify(first.value) ?? 'absent'}`
      : 'not its type’s shape',
  );
}
