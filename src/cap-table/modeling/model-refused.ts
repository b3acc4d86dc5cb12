import { CapMathError } from '../../../libs/cap-math';
import { DomainError } from '../../common';

/**
 * cap-math's refusal of a model as a 400. The body names the field when it is one of the
 * request's `fields`, which the model takes under the same names (an investment's amount is
 * `investments[0].amount` in both); a field of the cap table (`holders[3].shares`) is not the
 * caller's to fix, so only the message tells of it.
 */
export function modelRefused(err: CapMathError, fields: readonly string[]): DomainError {
  const name = err.field.split(/[.[]/)[0];
  return DomainError.badRequest(
    err.message,
    fields.includes(name) ? { body: { field: err.field } } : undefined,
  );
}
