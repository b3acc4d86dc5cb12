/**
 * The one error this library throws: the input describes something that cannot exist
 * (a negative share count, a 31st of February, a schedule with no periods...).
 * Callers can map it to a 400 without inspecting messages: `field` names the input it is about
 * as the function was given it ('quantity', 'totalPeriods', 'acceleration.percent',
 * `classes[2].originalIssuePrice`), the message says what is wrong with it for people.
 */
export class CapMathError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'CapMathError';
  }
}

/**
 * Runs `work` on what the caller knows as `field`: a CapMathError it throws is about that field
 * (same message). For helpers that only see a value (a date computed from a start date).
 */
export function about<T>(field: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof CapMathError && error.field !== field) {
      throw new CapMathError(error.message, field);
    }
    throw error;
  }
}
