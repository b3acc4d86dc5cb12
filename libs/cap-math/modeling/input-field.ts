import { CapMathError } from '../errors';

/**
 * A field of a model's input: `path` locates it in the input (`convertibles[2].discount`; the
 * CapMathError's field) and `label` is how messages call it (`discount of convertible "safe"`).
 * A bare string is a field whose messages call it by its path.
 */
export type InputField = string | { path: string; label: string };

export const pathOf = (field: InputField): string =>
  typeof field === 'string' ? field : field.path;

export const labelOf = (field: InputField): string =>
  typeof field === 'string' ? field : field.label;

/** An error about the field, its message written around the field's label. */
export function invalid(field: InputField, message: (label: string) => string): CapMathError {
  return new CapMathError(message(labelOf(field)), pathOf(field));
}

/**
 * Reads the field with a guard that names it by `label` (`nonNegative(label, value)`): what the
 * guard throws is about the field, its message led by the label (prefixed to a message that does
 * not start with it yet, such as "Not a plain decimal number").
 */
export function named<T>(field: InputField, read: (label: string) => T): T {
  const label = labelOf(field);
  try {
    return read(label);
  } catch (error) {
    if (!(error instanceof CapMathError)) throw error;
    const message = error.message.startsWith(label) ? error.message : `${label}: ${error.message}`;
    throw new CapMathError(message, pathOf(field));
  }
}
