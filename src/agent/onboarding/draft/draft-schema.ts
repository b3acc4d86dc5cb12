import { plainToInstance } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';
import { OnboardingDraft } from './onboarding-draft.dto';

type Json = Record<string, unknown>;
type Class = new () => object;

interface Rule {
  type: string;
  name?: string;
  propertyName: string;
  constraints: unknown[];
  each?: boolean;
  target: object | string;
}

/** The JSON Schema of the `record_onboarding_draft` tool's input. */
export interface DraftInputSchema extends Json {
  type: 'object';
  properties: Record<string, Json>;
  required: string[];
  additionalProperties: false;
}

/** A property's description, when something documents it (the published API document). */
export type Describe = (className: string, property: string) => string | undefined;

/**
 * What each validation rule of the draft's DTOs says in JSON Schema. Rules that check more than
 * a schema can say (an existing country or currency code, a real calendar date, a fraction at
 * most 1) give the shape they accept; validation still checks the rest.
 */
const RULES: Record<string, (schema: Json, constraints: unknown[]) => void> = {
  isString: (s) => (s.type = 'string'),
  isNotEmpty: (s) => (s.minLength = 1),
  maxLength: (s, [n]) => (s.maxLength = n),
  isIn: (s, [values]) =>
    Object.assign(s, {
      ...((values as unknown[]).every((v) => typeof v === 'string') ? { type: 'string' } : {}),
      enum: values,
    }),
  isNumber: (s) => (s.type = 'number'),
  isInt: (s) => (s.type = 'integer'),
  min: (s, [n]) => (s.minimum = n),
  max: (s, [n]) => (s.maximum = n),
  isBoolean: (s) => (s.type = 'boolean'),
  isArray: (s) => (s.type = 'array'),
  arrayMaxSize: (s, [n]) => (s.maxItems = n),
  isObject: (s) => (s.type = 'object'),
  isEmail: (s) => Object.assign(s, { type: 'string', format: 'email' }),
  isCalendarDate: (s) => Object.assign(s, { type: 'string', format: 'date' }),
  isISO31661Alpha2: (s) => Object.assign(s, { type: 'string', pattern: '^[A-Za-z]{2}$' }),
  isISO4217CurrencyCode: (s) => Object.assign(s, { type: 'string', pattern: '^[A-Za-z]{3}$' }),
  matches: (s, [pattern]) => {
    const regex = pattern as RegExp;
    if (regex.flags) throw new Error(`a pattern with flags (${regex}) has no JSON Schema`);
    Object.assign(s, { type: 'string', pattern: regex.source });
  },
  atMostOne: () => undefined,
};

/**
 * The tool's input schema, derived from the validation the draft must pass (validateDraft:
 * class-validator's rules of OnboardingDraft and the classes it nests, inherited rules
 * included): every validated property and no other (`additionalProperties: false`, as
 * validation refuses unknown members), required unless its rules let it be left out. A rule
 * this derivation cannot say throws, so a new one cannot drift unnoticed.
 */
export function draftInputSchema(describe: Describe = () => undefined): DraftInputSchema {
  return objectSchema(OnboardingDraft, describe);
}

function objectSchema(cls: Class, describe: Describe): DraftInputSchema {
  const rules = getMetadataStorage().getTargetValidationMetadatas(
    cls,
    '',
    true,
    false,
  ) as unknown as Rule[];
  const byProperty = new Map<string, Rule[]>();
  // A base class's properties first (an item's `id` before its own fields).
  for (const rule of [...rules].sort((a, b) => depth(cls, b.target) - depth(cls, a.target))) {
    byProperty.set(rule.propertyName, [...(byProperty.get(rule.propertyName) ?? []), rule]);
  }
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  for (const [name, own] of byProperty) {
    properties[name] = propertySchema(cls, name, own, describe);
    if (!own.some((r) => r.type === 'conditionalValidation')) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function propertySchema(cls: Class, name: string, rules: Rule[], describe: Describe): Json {
  const schema: Json = {};
  const items: Json = {};
  for (const rule of rules) {
    const target = rule.each ? items : schema;
    if (rule.type === 'conditionalValidation') continue;
    if (rule.type === 'nestedValidation') {
      Object.assign(target, objectSchema(nestedClass(cls, name, Boolean(rule.each)), describe));
      continue;
    }
    const say = rule.type === 'customValidation' && rule.name ? RULES[rule.name] : undefined;
    if (!say) {
      throw new Error(
        `the draft schema cannot say what ${rule.name ?? rule.type} accepts (${cls.name}.${name})`,
      );
    }
    say(target, rule.constraints ?? []);
  }
  if (schema.type === 'array') schema.items = items;
  const description = describe(cls.name, name);
  return description ? { description, ...schema } : schema;
}

/** The class validation instantiates for a nested property: asked of class-transformer itself. */
function nestedClass(cls: Class, name: string, each: boolean): Class {
  const probe = plainToInstance(cls, { [name]: each ? [{}] : {} }) as Record<string, unknown>;
  const value = each ? (probe[name] as unknown[])[0] : probe[name];
  const nested = (value as object | undefined)?.constructor;
  if (!nested || nested === Object) throw new Error(`${cls.name}.${name} names no nested class`);
  return nested as Class;
}

/** How far up `cls`'s prototype chain `target` is (0: `cls` itself). */
function depth(cls: Class, target: object | string): number {
  let n = 0;
  for (let c: unknown = cls; c && c !== Function.prototype; c = Object.getPrototypeOf(c), n++) {
    if (c === target) return n;
  }
  return 0;
}
