import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { isValidDate, toDecimal, toDecimalString } from '../../../../libs/cap-math';
import {
  DRAFT_COLLECTIONS,
  DRAFT_FIELDS,
  isDraftCollection,
  type FieldKind,
} from './draft-collections';

type Coerced = { value: unknown } | { error: string };

/** What the model alone says of an item. */
const NOT_CORRECTABLE = new Set(['id', 'confidence', 'source']);

const SCALE: Record<string, number> = { k: 3, m: 6, mm: 6, b: 9, bn: 9 };

/**
 * A decimal as people type it: `4,000,000`, `$1.5M`, `2k`, `1 000` → `4000000`, `1500000`, …
 * (separators and a currency sign dropped, a k / m / b suffix scaled, trailing zeros trimmed).
 */
function readDecimal(text: string): string | null {
  const m = /^(\d+(?:\.\d+)?|\.\d+)(k|m|mm|b|bn)?$/i.exec(text.replace(/[\s,_$€£¥]/g, ''));
  if (!m) return null;
  const d = toDecimal(m[1]);
  return toDecimalString(m[2] ? d.times(10 ** SCALE[m[2].toLowerCase()]) : d);
}

/** A fraction 0–1; `20%` and a bare `20` (more than 1, so a percent) are 0.2. */
function readFraction(text: string): string | null {
  const percent = text.endsWith('%');
  const d = readDecimal(percent ? text.slice(0, -1) : text);
  if (d === null) return null;
  return percent || toDecimal(d).gt(1) ? toDecimalString(toDecimal(d).div(100)) : d;
}

/** The text read as the field's kind, or why it cannot be (bounds are the DTO's to check). */
function read(kind: FieldKind, text: string): Coerced {
  if (typeof kind !== 'string') {
    const norm = text.replace(/[\s-]+/g, '_').toUpperCase();
    const value = kind.find((v) => v.toUpperCase() === norm);
    return value !== undefined ? { value } : { error: `must be one of ${kind.join(', ')}` };
  }
  switch (kind) {
    case 'decimal': {
      const value = readDecimal(text);
      return value !== null ? { value } : { error: 'must be a number such as 4000000 or 0.25' };
    }
    case 'fraction': {
      const value = readFraction(text);
      return value !== null ? { value } : { error: 'must be a percentage such as 20% or 0.2' };
    }
    case 'integer': {
      const digits = text.replace(/[\s,_]/g, '');
      return /^\d{1,9}$/.test(digits)
        ? { value: Number(digits) }
        : { error: 'must be a whole number' };
    }
    case 'date':
      return isValidDate(text) ? { value: text } : { error: 'must be a date YYYY-MM-DD' };
    default:
      return { value: text };
  }
}

/**
 * A person's correction of one field of an item, typed as text, as the value the draft holds:
 * read as the field's kind, then checked with the DTO's own rules for that field. An empty text
 * clears an optional field (`{value: null}`). The model's `id`, `confidence` and `source` are not
 * corrected; an unknown field is an error naming the ones there are.
 */
export function coerceField(collection: string, fieldPath: string, newValue: string): Coerced {
  if (!isDraftCollection(collection)) {
    return { error: `no list ${collection} in a draft: ${Object.keys(DRAFT_FIELDS).join(', ')}` };
  }
  if (NOT_CORRECTABLE.has(fieldPath)) return { error: `${fieldPath} is not corrected by hand` };
  const fields = DRAFT_FIELDS[collection];
  const spec = Object.prototype.hasOwnProperty.call(fields, fieldPath)
    ? fields[fieldPath]
    : undefined;
  if (!spec) {
    return {
      error: `${collection} has no field ${fieldPath}: ${Object.keys(fields).join(', ')}`,
    };
  }
  const text = newValue.trim();
  if (!text) return spec.optional ? { value: null } : { error: `${fieldPath} is required` };
  const read1 = read(spec.kind, text);
  if ('error' in read1) return { error: `${fieldPath} ${read1.error}` };
  // The DTO's rules for the field alone (lengths, bounds, formats), and its normalisation.
  const item = plainToInstance(DRAFT_COLLECTIONS[collection].itemClass, {
    [fieldPath]: read1.value,
  }) as unknown as Record<string, unknown>;
  const failed = validateSync(item, { skipMissingProperties: true }).find(
    (e) => e.property === fieldPath,
  );
  const message = Object.values(failed?.constraints ?? {})[0];
  return message ? { error: message } : { value: item[fieldPath] };
}
