import type { ValidationError } from 'class-validator';
import { DomainError } from './domain-error';

interface FieldProblem {
  path: string;
  missing: boolean;
  message: string;
}

/**
 * The rule worth reporting when a value breaks several: its type first ("must be a string" says
 * more about 42 than "must be shorter than 1024 characters"), then the first other one.
 */
const mainMessage = (constraints: Record<string, string>): string => {
  const names = Object.keys(constraints);
  const typeCheck = names.find((n) => /^is[A-Z]/.test(n) && n !== 'isNotEmpty');
  return constraints[typeCheck ?? names[0]];
};

/** Every failing field once, with one rule it breaks; nested fields by their path. */
function flatten(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    const own: FieldProblem[] = [];
    if (e.constraints && Object.keys(e.constraints).length) {
      const missing = e.value === undefined;
      own.push({
        path,
        missing,
        message: missing ? `${path} is required` : prefix(path, mainMessage(e.constraints)),
      });
    }
    return [...own, ...flatten(e.children ?? [], path)];
  });
}

/** class-validator names the leaf property; for nested fields the reader needs the whole path. */
const prefix = (path: string, message: string) => {
  const leaf = path.slice(path.lastIndexOf('.') + 1);
  return message.startsWith(`${leaf} `) ? `${path}${message.slice(leaf.length)}` : message;
};

/**
 * The ValidationPipe's exception factory: 400 `{error, message}` naming each field and the rule
 * once; with the section 7 key `invalidFields` when a required field is missing.
 */
export function validationError(errors: ValidationError[]): DomainError {
  const problems = flatten(errors);
  const message = problems.map((p) => p.message).join('; ') || 'invalid request';
  if (problems.some((p) => p.missing)) return DomainError.keyed('invalidFields', message);
  return DomainError.badRequest(message);
}
