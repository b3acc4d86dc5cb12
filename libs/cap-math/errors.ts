/**
 * The one error this library throws: the input describes something that cannot exist
 * (a negative share count, a 31st of February, a schedule with no periods...).
 * Callers can map it to a 400 without inspecting messages.
 */
export class CapMathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CapMathError';
  }
}
