import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { OnboardingDraft } from './onboarding-draft.dto';

/** More would bury the first ones; the model fixes these and tries again. */
export const MAX_DRAFT_ERRORS = 50;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A model writes `null` for what it does not know: the same as leaving the member out. */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, x]) => x !== null)
      .map(([k, x]) => [k, withoutNulls(x)]),
  );
}

/** class-validator names the leaf in its message ("quantity must be…"); the path names it already. */
function reason(leaf: string, message: string): string {
  for (const prefix of [`property ${leaf} `, `nested property ${leaf} `, `${leaf} `]) {
    if (message.startsWith(prefix)) return message.slice(prefix.length);
  }
  return message;
}

/** Every failing field once, as `path: reason` (`shareholdings.3.quantity: must be …`). */
function flatten(errors: ValidationError[], parent: string, out: string[]) {
  for (const e of errors) {
    if (out.length >= MAX_DRAFT_ERRORS) return;
    const path = parent ? `${parent}.${e.property}` : e.property;
    const messages = Object.values(e.constraints ?? {});
    // One reason a field: the first (its type, usually) says enough.
    if (messages.length) out.push(`${path}: ${reason(e.property, messages[0])}`);
    flatten(e.children ?? [], path, out);
  }
}

/**
 * The model's tool input as a draft, or why it is not one: every field checked (types, bounds,
 * dates, decimals), members the draft does not have refused, at most `MAX_DRAFT_ERRORS` reasons.
 * Whether the draft makes a cap table (references, totals) is checkDraft's.
 */
export function validateDraft(input: unknown): { draft: OnboardingDraft } | { errors: string[] } {
  if (!isObject(input)) return { errors: ['the draft must be a JSON object'] };
  const draft = plainToInstance(OnboardingDraft, withoutNulls(input));
  const errors: string[] = [];
  flatten(
    validateSync(draft, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true }),
    '',
    errors,
  );
  return errors.length ? { errors } : { draft };
}
